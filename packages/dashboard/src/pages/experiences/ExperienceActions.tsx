import { Link, useNavigate } from "react-router";
import type { ExperienceSummary } from "@storefit/contract";
import { useChangeExperienceStatus, useDuplicateExperience } from "../../api/experiences";
import { paths } from "../../paths";
import { duplicateInput } from "../experience-editor/model";
import { StartButton } from "./StartButton";
import { STATUS_ACTIONS } from "./status-actions";

/** A row's actions: edit (or view), results, duplicate, and the allowed status changes. */
export function ExperienceActions({
  experience,
  canEdit,
}: {
  experience: ExperienceSummary;
  canEdit: boolean;
}) {
  const navigate = useNavigate();
  const changeStatus = useChangeExperienceStatus();
  const duplicate = useDuplicateExperience(duplicateInput);
  const busy = changeStatus.isPending || duplicate.isPending;
  const error = changeStatus.error ?? duplicate.error;
  const label = (action: string) => `${action} ${experience.name}`;

  return (
    <div className="exp-actions">
      <Link
        className="button button--secondary button--small"
        to={paths.experience(experience.id)}
        aria-label={label(canEdit ? "Edit" : "View")}
      >
        {canEdit ? "Edit" : "View"}
      </Link>
      <Link
        className="button button--secondary button--small"
        to={paths.results(experience.id)}
        aria-label={label("Results of")}
      >
        Results
      </Link>
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={!canEdit || busy}
        aria-label={label("Duplicate")}
        onClick={() =>
          duplicate.mutate(experience.id, {
            onSuccess: (copy) => void navigate(paths.experience(copy.id)),
          })
        }
      >
        Duplicate
      </button>
      {STATUS_ACTIONS[experience.status].map((action) =>
        action.to === "running" ? (
          // Start and Resume look at the overlaps first (StartButton).
          <StartButton
            key={action.to}
            experience={experience}
            label={action.label}
            ariaLabel={label(action.label)}
            className="button button--small button--primary"
            disabled={!canEdit || busy}
            canSplit={canEdit}
            onStart={() => changeStatus.mutate({ id: experience.id, status: action.to })}
          />
        ) : (
          <button
            key={action.to}
            type="button"
            className="button button--small button--secondary"
            disabled={!canEdit || busy}
            aria-label={label(action.label)}
            data-testid={`status-${action.to}`}
            onClick={() => changeStatus.mutate({ id: experience.id, status: action.to })}
          >
            {action.label}
          </button>
        ),
      )}
      {error ? (
        <p className="exp-actions__error" role="alert">
          {error.message}
        </p>
      ) : null}
    </div>
  );
}
