// Audiences: the list, and the editor for one audience on the same route (`?audience=<id>` or
// `?audience=new`), so the editor can be linked to without a route of its own.
import { Link, useSearchParams } from "react-router";
import { useSignedInSession } from "../../components/RequireSession";
import { PageHeader } from "../../components/PageHeader";
import { AudienceEditorScreen } from "./AudienceEditor";
import { AudiencesDataTable } from "./AudiencesDataTable";
import { AUDIENCE_PARAM, NEW_AUDIENCE, audienceHref } from "./links";
import "./audiences.css";

export function AudiencesPage() {
  const [params] = useSearchParams();
  const { user } = useSignedInSession();
  const canEdit = user.role !== "viewer";
  const selected = params.get(AUDIENCE_PARAM);

  if (selected !== null) {
    return <AudienceEditorScreen key={selected} audienceId={selected === NEW_AUDIENCE ? undefined : selected} canEdit={canEdit} />;
  }
  return (
    <>
      <title>Audiences · Storefit</title>
      <PageHeader
        title="Audiences"
        description="Who an experience's rule is for: conditions over the visitor's device, browser, campaign, tags, properties and page."
        actions={
          canEdit ? (
            <Link className="button button--primary" to={audienceHref(NEW_AUDIENCE)}>
              New audience
            </Link>
          ) : null
        }
      />
      {canEdit ? null : (
        <p className="notice" role="note">
          You have the viewer role: you can read audiences and try them with the tester, not change them.
        </p>
      )}
      <AudiencesDataTable canEdit={canEdit} />
    </>
  );
}
