import { PageHeader } from "../../components/PageHeader";

// Placeholder while the screen is being built (issue #7/#8/#9).
export function ExperienceEditorPage() {
  return <PageHeader title="Experience editor" />;
}
