import { Link } from "react-router";
import { useAudiences } from "../../api/audiences";
import { DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/StatusMessage";
import { AudiencesTable } from "./AudiencesTable";
import { NEW_AUDIENCE, audienceHref } from "./links";

export function AudiencesDataTable({ canEdit }: { canEdit: boolean }) {
  const query = useAudiences();
  return (
    <DataTable
      query={query}
      noun="audiences"
      isEmpty={(data) => data.audiences.length === 0}
      empty={
        <EmptyState title="No audiences yet">
          {canEdit ? (
            <p>
              <Link to={audienceHref(NEW_AUDIENCE)}>Create an audience</Link> — for example mobile visitors, or
              visitors from a campaign — and use it in an experience's rule.
            </p>
          ) : (
            <p>An editor or owner can create audiences for the experiences' rules.</p>
          )}
        </EmptyState>
      }
    >
      {(data) => <AudiencesTable audiences={data.audiences} />}
    </DataTable>
  );
}
