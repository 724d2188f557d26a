// "Mutually exclusive group" (docs/dashboard.md): experiences in one group split its visitors, so
// a visitor is in at most one of them. The operator names the group and this experience's share;
// where its slice goes is computed here, from the other running and paused members' slices.
import { useEffect, useId } from "react";
import { useFormContext } from "react-hook-form";
import { useExperiences } from "../../api/experiences";
import {
  formerMembers,
  groupMembers,
  groupNames,
  listWords,
  percentLabel,
  placeSlice,
  rangesLabel,
  sliceChange,
} from "../experiences/overlaps";
import type { Slice } from "../experiences/overlaps";
import { parseNumber, percentToShare } from "./model";
import type { ExperienceForm } from "./model";
import { FieldError, TextInput, useFieldValue } from "../../components/form";
import "../experiences/overlaps.css";

export function ExclusionGroupSection({ experienceId }: { experienceId: string | null }) {
  const listId = useId();
  const { setValue, register } = useFormContext<ExperienceForm>();
  // Fields without an input of their own, registered so that the editor can reset them when the
  // "split traffic" remedy saved a new group (ExperienceEditorForm).
  useEffect(() => {
    register("group.start");
    register("group.stored");
  }, [register]);
  const experiences = useExperiences().data?.experiences ?? [];
  const name = useFieldValue<string>("group.name").trim();
  const shareText = useFieldValue<string>("group.share");
  const start = useFieldValue<number | null>("group.start");
  const stored = useFieldValue<ExperienceForm["group"]["stored"]>("group.stored");
  const except = experienceId ? [experienceId] : [];
  const members = name ? groupMembers(experiences, name, except) : [];
  const percent = parseNumber(shareText);
  const share =
    percent === undefined || Number.isNaN(percent)
      ? Number.NaN
      : percentToShare(shareText, percent);
  // The slice whose visitors are this experience's shoppers: it has run (running or paused) in
  // this group. A draft has none yet.
  const status = experiences.find((e) => e.id === experienceId)?.status;
  const own: Slice | null =
    stored && stored.name === name && (status === "running" || status === "paused")
      ? { start: stored.start, end: stored.end }
      : null;
  const placement = name
    ? placeSlice(
        members.map((m) => m.slice),
        share,
        start ?? undefined,
        own,
      )
    : null;
  const placedStart = placement?.ok ? placement.slice.start : null;
  // Who may have held space that is free now: the members, and the archived ones' last slices.
  const others = name ? [...members, ...formerMembers(experiences, name, except)] : [];
  const change = own && placement?.ok ? sliceChange(own, placement.slice, others) : null;

  // The slice follows the name and the share; it stays where it is while it still fits there
  // (for a member that has run: around its own slice, placeSlice's `own`).
  useEffect(() => {
    if (name && placedStart !== start) setValue("group.start", placedStart, { shouldDirty: true });
  }, [name, placedStart, start, setValue]);

  return (
    <section className="panel ed-panel" aria-labelledby="group-title">
      <h2 className="panel__title" id="group-title">
        Mutually exclusive group
      </h2>
      <p className="ed-hint">
        Experiences in one group split its visitors: each gets its share, and no visitor is in two
        of them. Use it when experiences change the same element, so that both are measured instead
        of one hiding the other.
      </p>
      <div className="ed-row">
        <TextInput
          name="group.name"
          label="Group name"
          className="ed-grow"
          list={listId}
          hint="Empty: not in a group (every visitor the rules admit can enter)."
        />
        <datalist id={listId}>
          {groupNames(experiences).map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
        <TextInput
          name="group.share"
          label="Share of the group's visitors (%)"
          inputMode="decimal"
        />
      </div>
      {name ? (
        <div data-testid="group-occupancy">
          <ul className="group-occupancy">
            {members.map((m) => (
              <li key={m.id}>
                “{m.name}” ({m.status}): {percentLabel(m.slice.end - m.slice.start)}, from{" "}
                {percentLabel(m.slice.start)} to {percentLabel(m.slice.end)}
              </li>
            ))}
            {placement?.ok ? (
              <li>
                This experience: {percentLabel(placement.slice.end - placement.slice.start)}, from{" "}
                {percentLabel(placement.slice.start)} to {percentLabel(placement.slice.end)}
              </li>
            ) : null}
          </ul>
          {members.length === 0 ? (
            <p className="ed-hint">No running or paused experience is in this group yet.</p>
          ) : null}
          {own && change && change.taken.length > 0 && others.length > 0 ? (
            <div className="notice notice--warning" role="alert" data-testid="group-taken">
              <p>
                {rangesLabel(change.taken)} of this group {change.taken.length > 1 ? "are" : "is"}{" "}
                free now but not this experience's. If another member held{" "}
                {change.taken.length > 1 ? "them" : "it"} before
                {change.neighbours.length
                  ? ` (perhaps ${listWords(change.neighbours.map((n) => `“${n}”`))}, if its share was made smaller or it stopped)`
                  : " (a share made smaller, or a member that stopped)"}
                , those shoppers will switch to this experience and count in both experiences'
                results. Storefit keeps no record of earlier shares, so it cannot tell.
              </p>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => {
                  setValue(
                    "group.share",
                    String(Math.round((own.end - own.start) * 100_000) / 1000),
                    {
                      shouldDirty: true,
                      shouldValidate: true,
                    },
                  );
                  setValue("group.start", own.start, { shouldDirty: true });
                }}
              >
                Keep its current slice ({percentLabel(own.end - own.start)}, from{" "}
                {percentLabel(own.start)} to {percentLabel(own.end)})
              </button>
            </div>
          ) : null}
          {own && change && change.released.length > 0 ? (
            <p className="ed-hint" data-testid="group-released">
              {rangesLabel(change.released)} of this group held this experience's shoppers: they
              will no longer see it. A member given that space later gets them, and they count in
              both experiences' results.
            </p>
          ) : null}
          <FieldError alert>{placement && !placement.ok ? placement.message : null}</FieldError>
        </div>
      ) : null}
    </section>
  );
}
