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
