/**
 * The part of better-sqlite3's API the store uses. The package ships no type declarations and the
 * DefinitelyTyped ones are not a dependency, so this declares what is called (better-sqlite3 12 docs/api.md).
 */
declare module 'better-sqlite3' {
  namespace Database {
    interface RunResult {
      changes: number;
      lastInsertRowid: number | bigint;
    }

    interface Statement<Params extends unknown[] = unknown[], Row = unknown> {
      run(...params: Params): RunResult;
      get(...params: Params): Row | undefined;
      all(...params: Params): Row[];
      iterate(...params: Params): IterableIterator<Row>;
    }

    interface Transaction<F extends (...args: never[]) => unknown> {
      (...args: Parameters<F>): ReturnType<F>;
      immediate(...args: Parameters<F>): ReturnType<F>;
    }

    interface Options {
      readonly?: boolean;
      fileMustExist?: boolean;
      timeout?: number;
    }

    interface Database {
      readonly open: boolean;
      readonly inTransaction: boolean;
      readonly name: string;
      readonly memory: boolean;
      prepare<Params extends unknown[] = unknown[], Row = unknown>(source: string): Statement<Params, Row>;
      exec(source: string): this;
      pragma(source: string, options?: { simple?: boolean }): unknown;
      transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F>;
      close(): this;
    }
  }

  interface DatabaseConstructor {
    new (filename?: string, options?: Database.Options): Database.Database;
  }

  const Database: DatabaseConstructor;
  export = Database;
}
