import { PageHeader } from "../../components/PageHeader";

// Placeholder while the screen is being built (issue #7/#8/#9).
export function ResultsPage() {
  return <PageHeader title="Results" />;
}
