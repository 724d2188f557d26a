// The experience editor: basics, page targeting, ordered rules, goals, preview. react-hook-form
// holds the values; one resolver (model.ts) validates the whole form, so every message is
// shown at its input and in a summary before anything is sent.
import { useEffect, useState } from "react";
import { useUnsavedWarning } from "../../components/useUnsavedWarning";
import { isVersionConflict, sameEditedFields, sameFieldsButGroup } from "../../api/experiences";
import type { VersionedExperience } from "../../api/experiences";
import { set, useForm } from "react-hook-form";
import type { FieldErrors, Path, Resolver } from "react-hook-form";
import type { Audience, ExperienceDetail, ExperienceInput } from "@storefit/contract";
import { emptyRule, experienceFromForm, experienceToForm, groupToForm } from "./model";
import { ExclusionGroupSection } from "./ExclusionGroupSection";
import type { ExperienceForm, FormProblem } from "./model";
import { Form, FormError, Select, TextInput, useFieldList } from "../../components/form";
import { GoalsSection } from "./GoalsSection";
import { PreviewPanel } from "./PreviewPanel";
import { PreviewContext, RuleEditor } from "./RuleEditor";
import { TargetingSection } from "./TargetingSection";
import { defaultPreviewPage } from "./preview";
import type { ShopAddresses } from "../../shop-address";
import type { RuleForm } from "./model";

const resolver: Resolver<ExperienceForm> = (values) => {
  const result = experienceFromForm(values);
  if (result.ok) return { values, errors: {} };
  const errors: FieldErrors<ExperienceForm> = {};
  for (const p of result.problems) set(errors, p.path, { type: "validate", message: p.message });
  return { values: {}, errors };
};

function RulesSection({ audiences }: { audiences: readonly Audience[] }) {
  const rules = useFieldList<RuleForm>("rules");
  return (
    <section className="ed-rules" aria-labelledby="rules-title">
      <h2 className="section-title" id="rules-title">
        Rules
      </h2>
      <p className="ed-hint">
        Checked in order: the first rule whose audience matches the visitor decides what they see.
      </p>
      {rules.fields.length === 0 ? (
        <p className="muted">No rules: an experience needs one to start.</p>
      ) : null}
      {rules.fields.map((field, i) => (
        <RuleEditor
          key={field.id}
          index={i}
          total={rules.fields.length}
          audiences={audiences}
          onMove={(to) => rules.move(i, to)}
          onRemove={() => rules.remove(i)}
        />
      ))}
      <button
        type="button"
        className="button button--secondary"
        onClick={() => rules.append(emptyRule())}
      >
        Add rule
      </button>
    </section>
  );
}

/**
 * Saves the form: `ifMatch` is the ETag of the version the form holds. Answers the stored version
 * (null for a new experience: the page then opens it).
 */
export type EditorSubmit = (
  input: ExperienceInput,
  ifMatch: string | null,
) => Promise<VersionedExperience | null>;

/** Someone else saved the experience since this form loaded it: the save was refused (412). */
function ConflictNotice({ onReload, reloading }: { onReload: () => void; reloading: boolean }) {
  return (
    <div className="form__error" role="alert" data-testid="save-conflict">
      <p>
        <strong>Not saved: this experience was changed since you opened it</strong> — in another
        tab, by someone else, or in the visual editor. Saving your version would overwrite those
        changes, so nothing was saved. Your edits are still here; copy what you need, then load the
        latest version and apply them again.
      </p>
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={onReload}
        disabled={reloading}
      >
        Reload the latest version (discards your edits)
      </button>
    </div>
  );
}

export function ExperienceEditorForm({
  initial,
  experience,
  version,
  audiences,
  mainDomain,
  domains,
  shopAddresses,
  canEdit,
  onSubmit,
  onReload,
  saveError,
}: {
  initial: ExperienceForm;
  experience: ExperienceDetail | null;
  /** The experience and its ETag as last read (null for a new one). */
  version: VersionedExperience | null;
  /** Reads the experience again; answers the latest version. */
  onReload: () => Promise<VersionedExperience | null>;
  audiences: readonly Audience[];
  mainDomain: string | undefined;
  domains: readonly string[];
  /** The account's domains and shop addresses, for the preview page's address. */
  shopAddresses?: ShopAddresses | undefined;
  canEdit: boolean;
  onSubmit: EditorSubmit;
  saveError: Error | null;
}) {
  const form = useForm<ExperienceForm>({
    defaultValues: initial,
    resolver,
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const [problems, setProblems] = useState<FormProblem[]>([]);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  // The shop page to preview on: a page the experience runs on, at the shop's address, until the
  // operator types another (null: not typed; the account may load after the form).
  const [typedPageUrl, setPageUrl] = useState<string | null>(null);
  const pageUrl =
    typedPageUrl ??
    defaultPreviewPage(
      experience?.pages ?? [],
      mainDomain,
      experience?.rules.flatMap((r) =>
        r.behaviour.variations.flatMap((v) => v.configs.map((c) => c.properties ?? {})),
      ) ?? [],
      shopAddresses,
    );
  const { isSubmitting, isDirty } = form.formState;
  /** The version the form's values come from: its ETag is sent as If-Match. */
  const [base, setBase] = useState(version);
  const [reloading, setReloading] = useState(false);

  // A newer version that differs only in status (a publish or pause on this page, a background
  // refetch) becomes the base: a save over it overwrites nothing. Any other change keeps the old
  // base, so the save is refused (412) instead of overwriting it.
  // A newer version whose only other change is the mutually exclusive group ("Split traffic"
  // on this page) is taken over too, group included, while the operator has not touched the
  // group's fields here.
  useEffect(() => {
    if (version && base && version.etag !== base.etag) {
      if (sameEditedFields(version.experience, base.experience)) setBase(version);
      else if (
        sameFieldsButGroup(version.experience, base.experience) &&
        !form.getFieldState("group.name").isDirty &&
        !form.getFieldState("group.share").isDirty
      ) {
        setBase(version);
        const group = groupToForm(version.experience.exclusion_group);
        for (const key of ["name", "share", "start", "stored"] as const)
          form.resetField(`group.${key}`, { defaultValue: group[key] });
      }
    }
  }, [version, base, form]);

  const reload = async () => {
    setReloading(true);
    try {
      const latest = await onReload();
      if (latest) {
        setBase(latest);
        form.reset(experienceToForm(latest.experience));
      }
    } finally {
      setReloading(false);
    }
  };

  // Closing or reloading the tab with unsaved edits asks first (the browser's own dialog).
  useUnsavedWarning(isDirty);

  const save = async (values: ExperienceForm) => {
    const result = experienceFromForm(values);
    if (!result.ok) return;
    setProblems([]);
    const saved = await onSubmit(result.value, base?.etag ?? null).catch(() => null);
    if (saved) {
      // The service assigned ids to new rules and variations: keep them, so the next save
      // keeps visitors' assignments and the preview links appear.
      setBase(saved);
      form.reset(experienceToForm(saved.experience));
      setSavedAt(new Date().toLocaleTimeString());
    }
  };
  const showProblems = () => {
    const result = experienceFromForm(form.getValues());
    setProblems(result.ok ? [] : result.problems);
  };

  return (
    <PreviewContext.Provider value={{ experienceId: experience?.id ?? null }}>
      <Form
        form={form}
        onSubmit={save}
        onInvalid={showProblems}
        className="ed-form"
        aria-label="Experience"
      >
        {problems.length > 0 ? (
          <div className="form__error" role="alert" data-testid="form-problems">
            <p>
              <strong>
                Fix {problems.length === 1 ? "this problem" : `these ${problems.length} problems`}{" "}
                before saving:
              </strong>
            </p>
            <ul>
              {problems.slice(0, 10).map((p) => (
                <li key={p.path + p.message}>
                  <button
                    type="button"
                    className="ed-problem"
                    onClick={() => form.setFocus(p.path as Path<ExperienceForm>)}
                  >
                    {p.message}
                  </button>
                </li>
              ))}
              {problems.length > 10 ? <li>…and {problems.length - 10} more.</li> : null}
            </ul>
          </div>
        ) : null}
        {saveError && isVersionConflict(saveError) ? (
          <ConflictNotice onReload={() => void reload()} reloading={reloading} />
        ) : saveError ? (
          <FormError testId="save-error">
            The service did not save it: {saveError.message}
          </FormError>
        ) : null}
        <fieldset className="ed-fieldset" disabled={!canEdit || isSubmitting}>
          <legend className="visually-hidden">Experience settings</legend>
          <section className="panel ed-panel" aria-labelledby="basics-title">
            <h2 className="panel__title" id="basics-title">
              Basics
            </h2>
            <div className="ed-row">
              <TextInput name="name" label="Name" className="ed-grow" />
              <Select
                name="kind"
                label="Kind"
                options={[
                  { value: "ab_test", label: "A/B test" },
                  { value: "personalization", label: "Personalization" },
                ]}
              />
              <TextInput
                name="priority"
                label="Priority"
                inputMode="decimal"
                hint="Higher wins when two experiences change the same element."
              />
            </div>
          </section>
          <ExclusionGroupSection experienceId={experience?.id ?? null} />
          <TargetingSection mainDomain={mainDomain} domains={domains} />
          <RulesSection audiences={audiences} />
          <GoalsSection />
        </fieldset>
        {/* Outside the fieldset: viewers copy and open preview links too. */}
        <PreviewPanel
          experienceId={experience?.id ?? null}
          pageUrl={pageUrl}
          onChange={setPageUrl}
        />
        <div className="ed-savebar">
          <span className="ed-hint" role="status">
            {isSubmitting
              ? "Saving…"
              : isDirty
                ? "Unsaved changes"
                : savedAt
                  ? `Saved at ${savedAt}`
                  : ""}
          </span>
          <button
            type="submit"
            className="button button--primary"
            disabled={!canEdit || isSubmitting}
          >
            {experience ? "Save changes" : "Create experience"}
          </button>
        </div>
      </Form>
    </PreviewContext.Provider>
  );
}
