// One rule (product.md §3 "Decisions"): an audience and a behaviour — traffic allocation and
// weighted variations, each with its configs and a link to the visual editor.
import { createContext, useContext } from "react";
import { Link } from "react-router";
import type { Audience } from "@storefit/contract";
import { paths } from "../../paths";
import { emptyConfig, emptyVariation } from "./model";
import type { ConfigForm, VariationForm } from "./model";
import { ConfigEditor } from "./ConfigEditor";
import {
  Checkbox,
  FieldError,
  Select,
  TextInput,
  useFieldError,
  useFieldList,
  useFieldValue,
} from "../../components/form";

/** The saved experience the variations belong to (null for a new one), for their links. */
export type PreviewTarget = { experienceId: string | null };
export const PreviewContext = createContext<PreviewTarget>({ experienceId: null });

/** Links work in the disabled fieldset of viewers; the preview links are under "Preview and QA". */
function VariationLinks({ variationId }: { variationId: string }) {
  const { experienceId } = useContext(PreviewContext);
  if (!experienceId || !variationId) {
    return (
      <p className="ed-hint">Save the experience to preview this variation or edit it visually.</p>
    );
  }
  return (
    <div className="ed-preview">
      <Link
        className="button button--secondary button--small"
        to={`${paths.visualEditor(experienceId)}?variation=${encodeURIComponent(variationId)}`}
      >
        Open visual editor
      </Link>
      <span className="ed-hint">Its preview link is under “Preview and QA”.</span>
    </div>
  );
}

function VariationEditor({
  prefix,
  index,
  total,
  weightShare,
  onRemove,
}: {
  prefix: string;
  index: number;
  total: number;
  weightShare: string;
  onRemove: () => void;
}) {
  const id = useFieldValue<string>(`${prefix}id`);
  const name = useFieldValue<string>(`${prefix}name`);
  const configs = useFieldList<ConfigForm>(`${prefix}configs`);
  const label = name || `Variation ${index + 1}`;
  return (
    <section className="ed-variation" aria-label={`Variation: ${label}`} data-testid="variation">
      <div className="ed-variation__header">
        <h4 className="ed-variation__title">
          {label} <span className="muted ed-small">{weightShare}</span>
          {index === 0 ? <span className="ed-tag">Control</span> : null}
        </h4>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={onRemove}
          disabled={total <= 1}
          aria-label={`Remove variation ${label}`}
        >
          Remove variation
        </button>
      </div>
      <div className="ed-row">
        <TextInput name={`${prefix}name`} label="Variation name" />
        <TextInput
          name={`${prefix}weight`}
          label="Weight"
          inputMode="decimal"
          hint="Relative to the other variations; 0 keeps it out."
        />
      </div>
      <VariationLinks variationId={id} />
      <div className="ed-configs">
        {configs.fields.length === 0 ? (
          <p className="muted ed-small">
            No changes: visitors see the page as it is (a plain control).
          </p>
        ) : null}
        {configs.fields.map((field, i) => (
          <ConfigEditor
            key={field.id}
            prefix={`${prefix}configs.${i}.`}
            index={i}
            defaultOpen={configs.fields.length <= 3 || !field.element_path}
            onRemove={() => configs.remove(i)}
            onReplace={(config) => {
              configs.remove(i);
              configs.insert(i, config);
            }}
          />
        ))}
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => configs.append(emptyConfig())}
        >
          Add config to {label}
        </button>
      </div>
    </section>
  );
}

export function RuleEditor({
  index,
  total,
  audiences,
  onMove,
  onRemove,
}: {
  index: number;
  total: number;
  audiences: readonly Audience[];
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const prefix = `rules.${index}.`;
  const audienceId = useFieldValue<string>(`${prefix}audience_id`);
  const variations = useFieldList<VariationForm>(`${prefix}behaviour.variations`);
  const weights = useFieldValue<VariationForm[]>(`${prefix}behaviour.variations`) ?? [];
  const variationsError = useFieldError(`${prefix}behaviour.variations`);
  const sum = weights.reduce((n, v) => n + (Number(v.weight) > 0 ? Number(v.weight) : 0), 0);
  const share = (i: number) => {
    const w = Number(weights[i]?.weight);
    return sum > 0 && w > 0
      ? `${Math.round((w / sum) * 1000) / 10}% of entrants`
      : "0% of entrants";
  };
  const audienceOptions = [
    { value: "", label: "Everyone" },
    ...audiences.map((a) => ({ value: a.id, label: a.name })),
  ];
  if (audienceId && !audiences.some((a) => a.id === audienceId)) {
    audienceOptions.push({ value: audienceId, label: `Unknown audience (${audienceId})` });
  }

  return (
    <section className="ed-rule panel" aria-label={`Rule ${index + 1}`} data-testid="rule">
      <div className="ed-rule__header">
        <h3 className="panel__title">Rule {index + 1}</h3>
        <div className="ed-config__tools">
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={index === 0}
            onClick={() => onMove(index - 1)}
            aria-label={`Move rule ${index + 1} up`}
          >
            Move up
          </button>
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={index === total - 1}
            onClick={() => onMove(index + 1)}
            aria-label={`Move rule ${index + 1} down`}
          >
            Move down
          </button>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={onRemove}
            aria-label={`Remove rule ${index + 1}`}
          >
            Remove rule
          </button>
        </div>
      </div>
      <div className="ed-row">
        <Select
          name={`${prefix}audience_id`}
          label="Audience"
          options={audienceOptions}
          hint="The first rule whose audience matches the visitor wins."
        />
        {audienceId === "" ? (
          <TextInput
            name={`${prefix}audience_name`}
            label="Label for “everyone” (optional)"
            placeholder="Everyone"
          />
        ) : null}
      </div>
      <div className="ed-row">
        <TextInput name={`${prefix}behaviour.name`} label="Behaviour name" />
        <TextInput
          name={`${prefix}behaviour.traffic`}
          label="Traffic allocation (%)"
          inputMode="decimal"
          hint="Share of the audience that enters."
        />
        <TextInput
          name={`${prefix}behaviour.ga_measurement_id`}
          label="GA measurement id (optional)"
          mono
          placeholder="G-XXXXXXX"
        />
      </div>
      <Checkbox
        name={`${prefix}behaviour.device_specific`}
        label="Device-specific: apply the mobile or desktop sub-variation by device"
      />
      <h4 className="ed-subtitle">Variations</h4>
      <FieldError alert>{variationsError}</FieldError>
      {variations.fields.map((field, i) => (
        <VariationEditor
          key={field.id}
          prefix={`${prefix}behaviour.variations.${i}.`}
          index={i}
          total={variations.fields.length}
          weightShare={share(i)}
          onRemove={() => variations.remove(i)}
        />
      ))}
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() =>
          variations.append(
            emptyVariation(`Variation ${String.fromCharCode(65 + variations.fields.length)}`),
          )
        }
      >
        Add variation
      </button>
    </section>
  );
}
