import { useState } from "react";
import { useExperiences } from "../../api/experiences";
import { DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/StatusMessage";
import { applyFilters, ExperienceFilters } from "./ExperienceFilters";
import type { Filters } from "./ExperienceFilters";
import { ExperiencesTable } from "./ExperiencesTable";
import { nextPrioritySort, sortByPriority } from "./priority-sort";
import type { PrioritySort } from "./priority-sort";

export function ExperiencesDataTable({ canEdit }: { canEdit: boolean }) {
  const query = useExperiences();
  const [filters, setFilters] = useState<Filters>({ status: "", text: "" });
  const [sort, setSort] = useState<PrioritySort>("none");
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
      {(data) => {
        const rows = sortByPriority(applyFilters(data.experiences, filters), sort);
        return (
          <>
            <ExperienceFilters value={filters} onChange={setFilters} />
            {rows.length === 0 ? (
              <EmptyState title="No experience matches">
                Change the text or the status to see more.
              </EmptyState>
            ) : (
              <ExperiencesTable
                experiences={rows}
                canEdit={canEdit}
                sort={sort}
                onSort={() => setSort(nextPrioritySort)}
              />
            )}
          </>
        );
      }}
    </DataTable>
  );
}
