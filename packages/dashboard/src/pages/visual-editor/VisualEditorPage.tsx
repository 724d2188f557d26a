// The visual editor (issue #9, docs/visual-editor.md): a page of the shop in a frame, in the
// script's edit mode, with the editor bridge inside it. The operator picks elements in the frame,
// edits them in the panel, sees each variation live (desktop and mobile widths), undoes and redoes,
// and saves the chosen variation's configs. Opened from the experience editor with
// `?variation=<variationId>`; `?page=<url>` opens that page at once.
import { useSearchParams, useParams, Link } from "react-router";
import { ErrorState, LoadingState } from "../../components/StatusMessage";
import { useEditedExperience, useShopAccount } from "../../api/visual-editor";
import { paths } from "../../paths";
import { VisualEditor } from "./VisualEditor";
import "./visual-editor.css";

export function VisualEditorPage() {
  const { experienceId = "" } = useParams();
  const [searchParams] = useSearchParams();
  const experience = useEditedExperience(experienceId);
  const account = useShopAccount();

  if (experience.isPending || account.isPending) {
    return (
      <div className="ve-state">
        <LoadingState label="Loading the visual editor…" />
      </div>
    );
  }
  if (experience.isError || account.isError) {
    const error = experience.error ?? account.error;
    return (
      <div className="ve-state">
        <ErrorState
          title={
            experience.isError ? "Could not load the experience" : "Could not load the account"
          }
          error={error!}
          onRetry={() => {
            void experience.refetch();
            void account.refetch();
          }}
        />
        <Link className="button button--secondary" to={paths.experiences}>
          Back to experiences
        </Link>
      </div>
    );
  }
  return (
    <VisualEditor
      experience={experience.data.experience}
      account={account.data}
      requestedVariationId={searchParams.get("variation")}
      initialPage={searchParams.get("page")}
    />
  );
}
