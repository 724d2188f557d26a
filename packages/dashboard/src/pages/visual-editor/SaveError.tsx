// Why a save of the visual editor failed: a conflict (someone changed the variation meanwhile),
// with the way to load the latest version; or the service's words, its code and the details of a
// validation error.
import { isApiRequestError } from "../../api/client";
import { isVersionConflict } from "../../api/experiences";

export function SaveError({
  error,
  onReload,
  reloading,
}: {
  error: Error;
  onReload: () => void;
  reloading: boolean;
}) {
  if (isVersionConflict(error))
    return (
      <div className="form__error ve-save-error" role="alert" data-testid="save-conflict">
        <p>
          <strong>Not saved: this variation was changed since you opened it</strong> — in another
          tab or by someone else. Saving would overwrite those changes, so nothing was saved. Your
          edits are still here; note what you need, then load the latest version and apply them
          again.
        </p>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={onReload}
          disabled={reloading}
        >
          Reload the latest version (discards your edits to this variation)
        </button>
      </div>
    );
  const details = isApiRequestError(error) ? error.details : undefined;
  return (
    <div className="form__error ve-save-error" role="alert">
      <p>
        Could not save: {error.message}
        {isApiRequestError(error) ? <span className="mono"> ({error.code})</span> : null}
      </p>
      {Array.isArray(details) && details.length > 0 ? (
        <ul>
          {details.slice(0, 5).map((d, i) => (
            <li key={i} className="mono">
              {typeof d === "string" ? d : JSON.stringify(d)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
