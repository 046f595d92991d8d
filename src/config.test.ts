import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has defaults for a single-machine install', () => {
    const config = loadConfig({}, '/srv/opentms');
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/opentms/data',
      databaseUrl: null,
      bodyLimitBytes: 10 * 1024 * 1024,
      uploadLimitBytes: 512 * 1024 * 1024,
      projectJobLimit: 10_000,
      admin: { username: 'admin', password: null },
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every setting from the environment', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: '127.0.0.1',
        OPENTMS_DATA_DIR: '/var/lib/opentms',
        DATABASE_URL: 'postgres://u@db/tms',
        OPENTMS_BODY_LIMIT_BYTES: '2048',
        OPENTMS_UPLOAD_LIMIT_BYTES: '4096',
        OPENTMS_PROJECT_JOB_LIMIT: '20',
        OPENTMS_ADMIN_USERNAME: 'root',
        OPENTMS_ADMIN_PASSWORD: 'long enough',
        LOG_LEVEL: 'debug',
      },
      '/x',
    );
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/var/lib/opentms',
      databaseUrl: 'postgres://u@db/tms',
      bodyLimitBytes: 2048,
      uploadLimitBytes: 4096,
      projectJobLimit: 20,
      logLevel: 'debug',
      admin: { username: 'root', password: 'long enough' },
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ OPENTMS_BODY_LIMIT_BYTES: '-1' }, /OPENTMS_BODY_LIMIT_BYTES/],
    [{ OPENTMS_ADMIN_PASSWORD: 'short' }, /at least 8/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('rejects %j with a readable message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('loadConfig: rate limits and Redis', () => {
  it('defaults to 6,000 per token, 30,000 per organization and 600 per IP a minute, counted in memory', () => {
    const config = loadConfig({});
    expect(config.rateLimit).toEqual({ perToken: 6000, perOrganization: 30000, perIp: 600 });
    expect(Object.isFrozen(config.rateLimit)).toBe(true);
    expect(config.redisUrl).toBeNull();
    expect(config.redisKeyPrefix).toBe('opentms:');
  });

  it('reads the limits (0 disables one), REDIS_URL and the key prefix', () => {
    const config = loadConfig({
      OPENTMS_RATE_LIMIT_PER_TOKEN: '100',
      OPENTMS_RATE_LIMIT_PER_ORGANIZATION: '0',
      OPENTMS_RATE_LIMIT_PER_IP: ' 20 ',
      REDIS_URL: 'rediss://:secret@cache.internal:6380/2',
      OPENTMS_REDIS_KEY_PREFIX: 'tms-eu:',
    });
    expect(config.rateLimit).toEqual({ perToken: 100, perOrganization: 0, perIp: 20 });
    expect(config.redisUrl).toBe('rediss://:secret@cache.internal:6380/2');
    expect(config.redisKeyPrefix).toBe('tms-eu:');
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe('redis://127.0.0.1:6379');
  });

  it.each([
    [{ OPENTMS_RATE_LIMIT_PER_TOKEN: 'many' }, /OPENTMS_RATE_LIMIT_PER_TOKEN must be a whole number/],
    [{ OPENTMS_RATE_LIMIT_PER_TOKEN: '-5' }, /OPENTMS_RATE_LIMIT_PER_TOKEN/],
    [{ OPENTMS_RATE_LIMIT_PER_ORGANIZATION: '1.5' }, /OPENTMS_RATE_LIMIT_PER_ORGANIZATION must be a whole number/],
    [{ OPENTMS_RATE_LIMIT_PER_IP: '1000000000' }, /OPENTMS_RATE_LIMIT_PER_IP must be between 0 and 100000000/],
    [{ REDIS_URL: 'http://cache:6379' }, /REDIS_URL must be a URL starting with redis:\/\/ or rediss:\/\//],
    [{ REDIS_URL: 'redis://' }, /REDIS_URL/],
    [{ REDIS_URL: 'cache.internal:6379' }, /REDIS_URL/],
    [{ OPENTMS_REDIS_KEY_PREFIX: 'has space' }, /OPENTMS_REDIS_KEY_PREFIX/],
    [{ OPENTMS_REDIS_KEY_PREFIX: 'x'.repeat(65) }, /OPENTMS_REDIS_KEY_PREFIX/],
  ])('rejects %j with a readable message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never repeats a bad REDIS_URL, which may hold a password, in the message', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://:hunter2@cache:6379' })).toThrow(/^(?!.*hunter2)/);
  });
});

describe('OPENTMS_TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
    ['loopback', ['loopback']],
  ])('%s -> %j', (raw, expected) => {
    expect(loadConfig(raw === undefined ? {} : { OPENTMS_TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it('rejects anything else', () => {
    expect(() => loadConfig({ OPENTMS_TRUST_PROXY: 'my proxy' })).toThrow(/OPENTMS_TRUST_PROXY/);
  });
});
