// The remedy for an overlap (docs/dashboard.md "Mutually exclusive groups"): both experiences go
// into one group with half of its visitors each, so no visitor is in both and both are measured.
// It changes the OTHER experience too, so it asks first and says what that costs.
import { useId, useState } from "react";
import type { ExperienceOverlap } from "@storefit/contract";
import { useExperiences, useFreshExperienceList, useSplitTraffic } from "../../api/experiences";
import { Dialog } from "../../components/Dialog";
import { listWords, planSplit, rangesLabel, splitShifts, suggestGroupName } from "./overlaps";
import "./overlaps.css";

type Self = { id: string; name: string };

/** The dialog's content: group name, what will happen, and the buttons. */
export function SplitTrafficForm({
  self,
  overlap,
  onCancel,
  onDone,
}: {
  self: Self;
  overlap: ExperienceOverlap;
  onCancel: () => void;
  /** After both are saved, with a sentence saying what was done. */
  onDone: (message: string) => void;
}) {
  const nameId = useId();
  const [name, setName] = useState(() => suggestGroupName(overlap));
  const split = useSplitTraffic();
  const freshList = useFreshExperienceList();
  const other = overlap.experience;
  const group = name.trim() || "…";
  const otherLive = other.status === "running" || other.status === "paused";
  // The plan as the list on screen has it (the save plans again from a fresh list): what it does
  // to the shoppers of an experience that already runs in that group.
  const listed = useExperiences().data?.experiences;
  const preview = listed ? planSplit(listed, self.id, other.id, name) : null;
  const shifts = listed && preview?.ok ? splitShifts(listed, self.id, other.id, preview) : [];

  const confirm = () =>
    split.mutate(
      {
        selfId: self.id,
        otherId: other.id,
        plan: async () => {
          const plan = planSplit((await freshList()).experiences, self.id, other.id, name);
          if (!plan.ok) throw new Error(plan.message);
          return plan;
        },
      },
      {
        onSuccess: () =>
          onDone(
            `“${self.name}” and “${other.name}” now split traffic in the group “${name.trim()}”, 50 % each.`,
          ),
      },
    );

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        confirm();
      }}
    >
      <div className="field">
        <label className="field__label" htmlFor={nameId}>
          Group name
        </label>
        <input
          id={nameId}
          className="field__input"
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <p>
        Both experiences go into the mutually exclusive group “{group}”: “{self.name}” gets 50 % of
        its visitors and “{other.name}” the other 50 %. Each visitor is in at most one of them,
        always the same one, so both stay measurable.
      </p>
      <p>
        <strong>This changes “{other.name}” too.</strong>{" "}
        {otherLive
          ? `Its visitors outside its half will no longer see it: it reaches about half as many visitors as before.`
          : "Once it runs, it reaches only the visitors of its half."}{" "}
        Nothing else of either experience changes; you can change the shares later in each
        experience's “Mutually exclusive group” section.
      </p>
      {shifts.map(({ id, name: who, change, releasedTo, othersInGroup }) => (
        <p key={id} className="notice notice--warning" data-testid="split-shift">
          {othersInGroup && change.taken.length
            ? `“${who}” already runs in “${group}”: its half takes ${rangesLabel(change.taken)} of the group, free now but not its own. If another member held it before${change.neighbours.length ? ` (perhaps ${listWords(change.neighbours.map((n) => `“${n}”`))}, if its share was made smaller or it stopped)` : ""}, those shoppers will switch to “${who}” and count in both experiences' results. Storefit keeps no record of earlier shares, so it cannot tell.`
            : ""}
          {othersInGroup && change.taken.length && change.released.length ? " " : ""}
          {change.released.length
            ? `“${who}” gives up ${rangesLabel(change.released)} of the group: its shoppers there will no longer see it${releasedTo ? `; those in the half of “${releasedTo}” switch to that experience and count in both experiences' results` : ""}.`
            : ""}
        </p>
      ))}
      {split.error ? (
        <p className="form__error" role="alert">
          Not split: {split.error.message}
        </p>
      ) : null}
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          className="button button--primary"
          disabled={split.isPending || name.trim() === ""}
        >
          {split.isPending ? "Splitting…" : "Split traffic 50 / 50"}
        </button>
      </div>
    </form>
  );
}

export function SplitTrafficDialog({
  self,
  overlap,
  onClose,
  onDone,
}: {
  self: Self;
  overlap: ExperienceOverlap;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  return (
    <Dialog title={`Split traffic with “${overlap.experience.name}”`} onClose={onClose}>
      <SplitTrafficForm self={self} overlap={overlap} onCancel={onClose} onDone={onDone} />
    </Dialog>
  );
}
