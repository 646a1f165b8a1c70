/**
 * A table that declares its columns once: the scrolling frame, the table named for assistive
 * technology (its own label, or the heading it names), one header row of column headers
 * (`scope="col"`, in the order given) and the body. The columns are the texts module's record of
 * a table's column names (their order is the record's) or a list; a table that shows a column
 * only sometimes leaves it out of what it passes.
 */
import type { ReactNode } from "react";

export type Columns = Readonly<Record<string, ReactNode>> | readonly ReactNode[];

type Named = { label: string; labelledBy?: undefined } | { labelledBy: string; label?: undefined };

export function DataTable({ columns, small = false, children, ...name }: Named & { columns: Columns; small?: boolean; children: ReactNode }) {
  const heads: [string, ReactNode][] = Array.isArray(columns) ? columns.map((c, i) => [String(i), c]) : Object.entries(columns);
  return (
    <div className="overflow-x-auto">
      <table className={small ? "table-sm table" : "table"} aria-label={name.label} aria-labelledby={name.labelledBy}>
        <thead className="text-base-content">
          <tr>
            {heads.map(([key, column]) => (
              <th key={key} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
