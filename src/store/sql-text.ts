// Quoting for the few places recon must put a name or a path into SQL text (ATTACH, COPY, a database
// name) because DuckDB takes no parameter there. Everything else is bound as a parameter.

/** A string literal: 'it''s'. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** An identifier: "my ""db""". */
export function sqlIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
