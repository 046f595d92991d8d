import { expect } from 'vitest';
import type { TestApp } from '../harness.js';
import type { Headers } from './api.js';
import { waitFor } from './wait.js';

/** Uploads and async requests, for tests of the operations that import files in the background. */

/**
 * POSTs `content` to `url` as the upload operations take a file: an application/octet-stream body
 * named `filename` by Content-Disposition (`filename*=UTF-8''…`).
 */
export function uploadOctetStream(t: TestApp, url: string, headers: Headers, filename: string, content: string | Buffer) {
  return t.inject({
    method: 'POST',
    url,
    headers: {
      ...headers,
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`,
    },
    payload: content,
  });
}

/** Waits (up to 30 s) for async request `id` to finish, as getAsyncRequest shows it to `headers`: its asyncResponse. */
export function asyncResponseOf<R>(t: TestApp, headers: Headers, id: string): Promise<R> {
  return waitFor(
    `async request ${id} to finish`,
    async () => {
      const response = await t.inject({ url: `/api2/v1/async/${id}`, headers });
      expect(response.statusCode).toBe(200);
      return response.json<{ asyncResponse: R | null }>().asyncResponse;
    },
    30_000,
    20,
  );
}
