// The middle layer of a screen (conventions habit 10: Page → DataTable → Table): takes one
// query's state and shows loading, error or empty, or hands the data to the screen's table.
// A failed background refetch keeps the last rows on screen, with a notice above them.
import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { ErrorState, LoadingState } from "./StatusMessage";

type DataTableProps<Data> = {
  query: UseQueryResult<Data>;
  /** What is being listed, for the status texts: "experiences", "events". */
  noun: string;
  isEmpty: (data: Data) => boolean;
  empty: ReactNode;
  children: (data: Data) => ReactNode;
};

export function DataTable<Data>({ query, noun, isEmpty, empty, children }: DataTableProps<Data>) {
  const { data } = query;
  if (data === undefined) {
    return query.isError ? (
      <ErrorState
        title={`Could not load ${noun}`}
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    ) : (
      <LoadingState label={`Loading ${noun}…`} />
    );
  }
  return (
    <div className="data-table">
      {query.isError ? (
        <p className="notice notice--warning" role="alert">
          Showing the last {noun} loaded: {query.error.message}
        </p>
      ) : null}
      {isEmpty(data) ? empty : <div className="table-frame">{children(data)}</div>}
    </div>
  );
}
