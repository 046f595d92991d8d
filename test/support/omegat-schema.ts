/** OmegaT's schemas for xmllint: shared with the format tests under src/ (src/formats/testing.ts). */
export { omegatSchema } from '../../src/formats/testing.js';
export type { OmegatSchema } from '../../src/formats/testing.js';
