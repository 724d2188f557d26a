import { useExperiences } from "../../api/queries";
import { DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/StatusMessage";
import { ExperiencesTable } from "./ExperiencesTable";

export function ExperiencesDataTable({ canEdit }: { canEdit: boolean }) {
  const query = useExperiences();
  return (
    <DataTable
      query={query}
      noun="experiences"
      isEmpty={(data) => data.experiences.length === 0}
      empty={
        <EmptyState title="No experiences yet">
          Experiences personalise or test what shoppers see on your pages.{" "}
          {canEdit ? "Create one with “New experience”." : "An editor of your team can create one."}
        </EmptyState>
      }
    >
      {(data) => <ExperiencesTable experiences={data.experiences} canEdit={canEdit} />}
    </DataTable>
  );
}
