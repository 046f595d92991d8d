import { AliasNode, ColumnNode, DeleteQueryNode, InsertQueryNode, TableNode, UpdateQueryNode } from 'kysely';
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** A write about to run: the table and, for updates, the columns it sets (database names, snake_case). */
export interface Write {
  readonly table: string;
  readonly kind: 'insert' | 'update' | 'delete';
  /** Updates only: the columns set. */
  readonly columns: readonly string[] | null;
}

export type WriteListener = (write: Write) => void;

/** `loginTokens` -> `login_tokens`; database names stay as they are. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function tableName(node: OperationNode | undefined): string | null {
  if (!node) return null;
  if (TableNode.is(node)) return snakeCase(node.table.identifier.name);
  if (AliasNode.is(node)) return tableName(node.node);
  return null;
}

/** What a query node writes, before or after the names were turned to snake_case; null for reads (and raw SQL, which says nothing of itself). */
export function describeWrite(node: RootOperationNode): Write | null {
  if (InsertQueryNode.is(node)) {
    const table = tableName(node.into);
    return table ? { table, kind: 'insert', columns: null } : null;
  }
  if (UpdateQueryNode.is(node)) {
    const table = tableName(node.table);
    const columns = (node.updates ?? []).flatMap((update) => (ColumnNode.is(update.column) ? [snakeCase(update.column.column.name)] : []));
    return table ? { table, kind: 'update', columns } : null;
  }
  if (DeleteQueryNode.is(node)) {
    const table = tableName(node.from.froms[0]);
    return table ? { table, kind: 'delete', columns: null } : null;
  }
  return null;
}

/**
 * The database's first plugin: tells its listeners of every insert, update and delete built with
 * Kysely, before it runs (the caches kept beside the database drop what the write may change; a
 * write that then fails or rolls back only costs them a reload). Listeners must be quick and must
 * not throw.
 */
export class WriteObserver implements KyselyPlugin {
  readonly #listeners = new Set<WriteListener>();

  /** Returns the unsubscribe function. */
  subscribe(listener: WriteListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  notify(write: Write): void {
    for (const listener of this.#listeners) listener(write);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.#listeners.size > 0) {
      const write = describeWrite(args.node);
      if (write) this.notify(write);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
