// "Mutually exclusive group" (docs/dashboard.md): experiences in one group split its visitors, so
// a visitor is in at most one of them. The operator names the group and this experience's share;
// where its slice goes is computed here, from the other running and paused members' slices.
import { useEffect, useId } from "react";
import { useFormContext } from "react-hook-form";
import { useExperiences } from "../../api/experiences";
import { groupMembers, groupNames, percentLabel, placeSlice } from "../experiences/overlaps";
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
  const members = name ? groupMembers(experiences, name, experienceId ? [experienceId] : []) : [];
  const percent = parseNumber(shareText);
  const share =
    percent === undefined || Number.isNaN(percent)
      ? Number.NaN
      : percentToShare(shareText, percent);
  const placement = name
    ? placeSlice(
        members.map((m) => m.slice),
        share,
        start ?? undefined,
      )
    : null;
  const placedStart = placement?.ok ? placement.slice.start : null;

  // The slice follows the name and the share; it stays where it is while it still fits there.
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
          <FieldError alert>{placement && !placement.ok ? placement.message : null}</FieldError>
        </div>
      ) : null}
    </section>
  );
}
