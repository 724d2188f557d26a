// Which running experiences change the same elements on the same pages as this one, and who is
// shown where both apply (issue #16: an overlap is never silent). Shown in the experience editor
// and the visual editor; renders nothing when there is no overlap.
import { useState } from "react";
import type { ExclusionGroup, ExperienceKind, ExperienceOverlap } from "@storefit/contract";
import { useExperienceOverlaps } from "../../api/experiences";
import { conflicts, overlapSentence } from "./overlaps";
import { SplitTrafficDialog } from "./SplitTrafficDialog";
import "./overlaps.css";

export function OverlapNotice({
  experience: self,
  canSplit = false,
}: {
  /** This experience as last read (its kind, priority and group shape the sentences). */
  experience: {
    id: string;
    name: string;
    kind: ExperienceKind;
    priority: number;
    exclusion_group: ExclusionGroup | null;
  };
  /** Offer "Split traffic with …" (the operator may edit both experiences). */
  canSplit?: boolean;
}) {
  const overlaps = useExperienceOverlaps(self.id);
  const [splitting, setSplitting] = useState<ExperienceOverlap | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const list = overlaps.data?.overlaps ?? [];
  if (list.length === 0)
    return done ? (
      <p className="notice notice--info" role="status">
        {done}
      </p>
    ) : null;
  const open = conflicts(list);
  const facts = { kind: self.kind, priority: self.priority, group: self.exclusion_group?.name };
  return (
    <section
      className={`notice ${open.length > 0 ? "notice--warning" : "notice--info"} overlap-notice`}
      aria-label="Overlapping experiences"
      data-testid="overlap-notice"
    >
      <p className="overlap-notice__title">
        {open.length > 0
          ? `${open.length === 1 ? "A running experience changes" : `${open.length} running experiences change`} the same elements on the same pages`
          : "Running experiences on the same elements, kept apart by a group"}
      </p>
      <ul>
        {list.map((o) => (
          <li key={o.experience.id}>
            <p>{overlapSentence(o, facts)}</p>
            {canSplit && !o.exclusive ? (
              <button
                type="button"
                className="button button--secondary button--small overlap-notice__remedy"
                onClick={() => setSplitting(o)}
              >
                Split traffic with “{o.experience.name}”
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {open.length > 0 ? (
        <p className="muted">
          To measure both, split traffic between them: a mutually exclusive group gives each a share
          of the visitors, and no visitor is in both. Or change the priority to choose who is shown.
        </p>
      ) : null}
      {done ? <p role="status">{done}</p> : null}
      {splitting ? (
        <SplitTrafficDialog
          self={self}
          overlap={splitting}
          onClose={() => setSplitting(null)}
          onDone={(message) => {
            setSplitting(null);
            setDone(message);
          }}
        />
      ) : null}
    </section>
  );
}
