// The experience editor route: /experiences/new creates a draft, /experiences/:experienceId
// edits one. Viewers see the same screen with every input disabled.
import { Link, useNavigate, useParams } from "react-router";
import type { ExperienceDetail } from "@storefit/contract";
import { useAccount } from "../../api/account";
import { useAudiences } from "../../api/audiences";
import {
  useChangeExperienceStatus,
  useCreateExperience,
  useUpdateExperience,
  useVersionedExperience,
} from "../../api/experiences";
import { PageHeader } from "../../components/PageHeader";
import { ErrorState, LoadingState } from "../../components/StatusMessage";
import { paths } from "../../paths";
import { useCanEdit } from "../experiences/canEdit";
import { OverlapNotice } from "../experiences/OverlapNotice";
import { StartButton } from "../experiences/StartButton";
import { StatusBadge } from "../experiences/StatusBadge";
import { STATUS_ACTIONS } from "../experiences/status-actions";
import { ExperienceEditorForm } from "./ExperienceEditorForm";
import { emptyExperience, experienceToForm } from "./model";
import "./editor.css";

function StatusActions({
  experience,
  canEdit,
}: {
  experience: ExperienceDetail;
  canEdit: boolean;
}) {
  const change = useChangeExperienceStatus();
  return (
    <div className="ed-status-actions">
      <StatusBadge status={experience.status} />
      <Link className="button button--secondary button--small" to={paths.results(experience.id)}>
        Results
      </Link>
      {STATUS_ACTIONS[experience.status].map((a) =>
        a.to === "running" ? (
          // Start and Resume look at the overlaps first (StartButton).
          <StartButton
            key={a.to}
            experience={experience}
            label={a.label}
            className="button button--small button--primary"
            disabled={!canEdit || change.isPending}
            canSplit={canEdit}
            onStart={() => change.mutate({ id: experience.id, status: a.to })}
          />
        ) : (
          <button
            key={a.to}
            type="button"
            className="button button--small button--secondary"
            disabled={!canEdit || change.isPending}
            onClick={() => change.mutate({ id: experience.id, status: a.to })}
            data-testid={`status-${a.to}`}
          >
            {a.label}
          </button>
        ),
      )}
      {change.error ? (
        <p className="ed-status-actions__error" role="alert">
          {change.error.message}
        </p>
      ) : null}
    </div>
  );
}

export function ExperienceEditorPage() {
  const { experienceId } = useParams();
  const navigate = useNavigate();
  const canEdit = useCanEdit();
  const experience = useVersionedExperience(experienceId);
  const audiences = useAudiences();
  const account = useAccount();
  const create = useCreateExperience();
  const update = useUpdateExperience();

  const isNew = experienceId === undefined;
  const title = isNew ? "New experience" : (experience.data?.experience.name ?? "Experience");

  if (!isNew && experience.data === undefined) {
    return (
      <>
        <title>Experience · Storefit</title>
        <PageHeader title="Experience" />
        {experience.isError ? (
          <ErrorState
            title="Could not load the experience"
            error={experience.error}
            onRetry={() => void experience.refetch()}
          />
        ) : (
          <LoadingState label="Loading the experience…" />
        )}
      </>
    );
  }
  if (audiences.data === undefined && audiences.isPending)
    return <LoadingState label="Loading audiences…" />;

  const versioned = experience.data ?? null;
  const detail = versioned?.experience ?? null;
  const settings = account.data?.settings;
  const domains = settings ? [settings.domain, ...settings.subdomains].filter(Boolean) : [];

  return (
    <>
      <title>{`${title} · Storefit`}</title>
      <PageHeader
        title={title}
        description={
          <>
            <Link to={paths.experiences}>All experiences</Link>
            {!canEdit ? " · You have view-only access: nothing here can be changed." : null}
          </>
        }
        actions={detail ? <StatusActions experience={detail} canEdit={canEdit} /> : null}
      />
      {audiences.isError ? (
        <p className="notice notice--warning" role="alert">
          Could not load audiences ({audiences.error.message}); rules can target everyone only.
        </p>
      ) : null}
      {detail ? <OverlapNotice experience={detail} canSplit={canEdit} /> : null}
      <ExperienceEditorForm
        // A different experience (after duplicating, or creating) starts a fresh form.
        key={detail?.id ?? "new"}
        initial={detail ? experienceToForm(detail) : emptyExperience()}
        experience={detail}
        version={versioned}
        audiences={audiences.data?.audiences ?? []}
        mainDomain={settings?.domain || undefined}
        domains={domains}
        shopAddresses={settings}
        canEdit={canEdit}
        saveError={(isNew ? create.error : update.error) ?? null}
        onSubmit={async (input, ifMatch) => {
          if (detail) return update.mutateAsync({ id: detail.id, input, ifMatch });
          const saved = await create.mutateAsync(input);
          void navigate(paths.experience(saved.id), { replace: true });
          return null;
        }}
        onReload={async () => {
          update.reset();
          const latest = await experience.refetch();
          return latest.data ?? null;
        }}
      />
    </>
  );
}
