// A plain, column-driven table: no data fetching and no states, just rows in, markup out.
// Below 640 px wide each row becomes a card; `data-label` carries the column name there.
import type { HTMLAttributes, ReactNode } from "react";

export type Column<Row> = {
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** Extra class on the header and body cells, e.g. `numeric` for right-aligned counts. */
  className?: string;
  /** A sortable column: its header is a button, and `aria-sort` says the current order. */
  sort?: { direction: "ascending" | "descending" | "none"; onSort: () => void };
};

type TableProps<Row> = {
  /** Accessible name of the table; shown to screen readers only. */
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Extra attributes per row, such as a `data-testid`. */
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & { "data-testid"?: string };
};

export function Table<Row>({ caption, columns, rows, rowKey, rowProps }: TableProps<Row>) {
  return (
    <table className="table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th
              key={column.key}
              scope="col"
              className={column.className}
              aria-sort={column.sort?.direction}
            >
              {column.sort ? (
                <button type="button" className="th-sort" onClick={column.sort.onSort}>
                  {column.header}
                  <span aria-hidden="true">
                    {column.sort.direction === "ascending"
                      ? "▲"
                      : column.sort.direction === "descending"
                        ? "▼"
                        : "↕"}
                  </span>
                </button>
              ) : (
                column.header
              )}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowProps?.(row)}>
            {columns.map((column) => (
              <td key={column.key} className={column.className} data-label={column.header}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
