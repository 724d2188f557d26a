// Start (or Resume) with a look at the overlaps first (docs/dashboard.md "Overlaps"): when a
// running experience would take the same elements on the same pages, the operator is told before
// anything changes and chooses: start anyway, split traffic with it, or cancel.
import { useState } from "react";
import type { ExperienceKind, ExperienceOverlap, ExclusionGroup } from "@storefit/contract";
import { useFreshOverlaps } from "../../api/experiences";
import { Dialog } from "../../components/Dialog";
import { conflicts, overlapSentence } from "./overlaps";
import { SplitTrafficForm } from "./SplitTrafficDialog";
import "./overlaps.css";

type Self = {
  id: string;
  name: string;
  kind: ExperienceKind;
  priority: number;
  exclusion_group: ExclusionGroup | null;
};

export function StartButton({
  experience,
  label,
  ariaLabel,
  className,
  disabled,
  onStart,
  canSplit,
}: {
  experience: Self;
  /** "Start" or "Resume". */
  label: string;
  ariaLabel?: string | undefined;
  className: string;
  disabled: boolean;
  /** Makes the status change (the caller shows its errors). */
  onStart: () => void;
  /** The operator may edit the other experience too. */
  canSplit: boolean;
}) {
  const freshOverlaps = useFreshOverlaps();
  const [checking, setChecking] = useState(false);
  const [found, setFound] = useState<ExperienceOverlap[] | null>(null);
  const [splitting, setSplitting] = useState<ExperienceOverlap | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  const check = async () => {
    setMessage(null);
    setChecking(true);
    try {
      const open = conflicts((await freshOverlaps(experience.id)).overlaps);
      if (open.length === 0) onStart();
      else setFound(open);
    } catch (error) {
      setMessage({
        text: `Could not check for overlapping experiences, so it was not started: ${(error as Error).message}`,
        error: true,
      });
    } finally {
      setChecking(false);
    }
  };
  const close = () => {
    setFound(null);
    setSplitting(null);
  };
  const facts = {
    kind: experience.kind,
    priority: experience.priority,
    group: experience.exclusion_group?.name,
  };

  return (
    <>
      <button
        type="button"
        className={className}
        disabled={disabled || checking}
        aria-label={ariaLabel}
        data-testid="status-running"
        onClick={() => void check()}
      >
        {label}
      </button>
      {message ? (
        <p
          className={message.error ? "exp-actions__error" : "muted"}
          role={message.error ? "alert" : "status"}
        >
          {message.text}
        </p>
      ) : null}
      {found && splitting ? (
        <Dialog title={`Split traffic with “${splitting.experience.name}”`} onClose={close}>
          <SplitTrafficForm
            self={experience}
            overlap={splitting}
            onCancel={() => setSplitting(null)}
            onDone={(text) => {
              close();
              setMessage({ text: `${text} Start it when you are ready.`, error: false });
            }}
          />
        </Dialog>
      ) : found ? (
        <Dialog
          title={`“${experience.name}” overlaps with ${found.length === 1 ? "a running experience" : `${found.length} running experiences`}`}
          role="alertdialog"
          onClose={close}
          testId="start-overlap-dialog"
        >
          <ul>
            {found.map((o) => (
              <li key={o.experience.id}>{overlapSentence(o, facts)}</li>
            ))}
          </ul>
          <p>
            Start anyway and only one of them is shown where both apply; the other gets fewer
            visitors than its targeting promises. Split traffic to give each a share of the
            visitors, so both are measured.
          </p>
          <div className="dialog__actions">
            <button type="button" className="button button--secondary" onClick={close}>
              Cancel
            </button>
            {canSplit
              ? found.map((o) => (
                  <button
                    key={o.experience.id}
                    type="button"
                    className="button button--secondary"
                    onClick={() => setSplitting(o)}
                  >
                    Split traffic with “{o.experience.name}”…
                  </button>
                ))
              : null}
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                close();
                onStart();
              }}
            >
              {label} anyway
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
