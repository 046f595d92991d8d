import type { AppDeps } from '../../../../deps.js';
import type { Id } from '../../../../db/schema.js';
import { tmIndexOf } from './index-host.js';

export { closeTmIndex, tmIndexOf, TmIndexHost } from './index-host.js';

/** Drops this process's indexes of deleted TMs (other processes drop theirs when they find the TM gone). */
export function forgetIndexes(deps: AppDeps, tmIds: readonly Id[]): void {
  void tmIndexOf(deps.database)
    .forget(tmIds)
    .catch(() => {});
}
