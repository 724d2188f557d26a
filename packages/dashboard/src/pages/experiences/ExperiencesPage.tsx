import { PageHeader } from "../../components/PageHeader";
import { ExperiencesDataTable } from "./ExperiencesDataTable";

export function ExperiencesPage() {
  return (
    <>
      <title>Experiences · Storefit</title>
      <PageHeader
        title="Experiences"
        description="Personalizations and A/B tests, with the pages they target."
      />
      <ExperiencesDataTable />
    </>
  );
}
