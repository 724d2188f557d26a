import { Link } from "react-router";
import { PageHeader } from "../../components/PageHeader";
import { paths } from "../../paths";
import { useCanEdit } from "./canEdit";
import { ExperiencesDataTable } from "./ExperiencesDataTable";

export function ExperiencesPage() {
  const canEdit = useCanEdit();
  return (
    <>
      <title>Experiences · Storefit</title>
      <PageHeader
        title="Experiences"
        description={
          canEdit
            ? "Personalizations and A/B tests, with the pages they target."
            : "Personalizations and A/B tests, with the pages they target. You have view-only access."
        }
        actions={
          canEdit ? (
            <Link className="button button--primary" to={paths.newExperience}>
              New experience
            </Link>
          ) : (
            <button
              type="button"
              className="button button--primary"
              disabled
              title="Viewers cannot create experiences"
            >
              New experience
            </button>
          )
        }
      />
      <ExperiencesDataTable canEdit={canEdit} />
    </>
  );
}
