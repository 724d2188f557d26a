// One audience: name, description, and its condition in two views kept in step — the builder
// (rules joined by all/any) and the JSON the service stores — with the tester beside them.
// The JSON view is the source of truth while the condition is one the builder cannot show.
import { useEffect, useState } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { Link, useLocation, useNavigate } from "react-router";
import type { Audience, Condition } from "@storefit/contract";
import { useAudience, useCreateAudience, useDeleteAudience, useUpdateAudience } from "../../api/audiences";
import { Field, Form, FormError, SubmitButton, TextInput } from "../../components/form";
import { PageHeader } from "../../components/PageHeader";
import { ErrorState, LoadingState } from "../../components/StatusMessage";
import { paths } from "../../paths";
import { AudienceTester } from "./AudienceTester";
import { ConditionBuilder } from "./ConditionBuilder";
import { type BuilderState, type Combinator, type Rule, fromCondition, ruleProblem, toCondition } from "./conditionModel";
import { useUnsavedWarning } from "../../components/useUnsavedWarning";
import { audienceHref } from "./links";

export type AudienceFormValues = { name: string; description: string; combinator: Combinator; rules: Rule[] };

const NEW_RULE: Rule = { attribute: "cf_device_type", operator: "is", value: "mobile" };
const pretty = (condition: unknown) => JSON.stringify(condition, null, 2);

export function AudienceEditorScreen({ audienceId, canEdit }: { audienceId: string | undefined; canEdit: boolean }) {
  const query = useAudience(audienceId);
  if (audienceId !== undefined && query.data === undefined) {
    return (
      <>
        <PageHeader title="Audience" />
        <BackLink />
        {query.isError ? (
          <ErrorState title="Could not load this audience" error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <LoadingState label="Loading the audience…" />
        )}
      </>
    );
  }
  return <AudienceEditor audience={query.data} canEdit={canEdit} />;
}

function BackLink() {
  return (
    <p className="audience-back">
      <Link to={paths.audiences}>← All audiences</Link>
    </p>
  );
}

function initialState(audience: Audience | undefined): { builder: BuilderState | null; condition: Condition } {
  if (!audience) return { builder: { combinator: "all", rules: [NEW_RULE] }, condition: toCondition({ combinator: "all", rules: [NEW_RULE] }) };
  return { builder: fromCondition(audience.condition), condition: audience.condition };
}

function AudienceEditor({ audience, canEdit }: { audience: Audience | undefined; canEdit: boolean }) {
  const navigate = useNavigate();
  // Set when the editor was opened right after creating this audience (see onSuccess below).
  const justCreated = (useLocation().state as { created?: boolean } | null)?.created === true;
  const [initial] = useState(() => initialState(audience));
  const [savedJson, setSavedJson] = useState(() => (audience ? JSON.stringify(audience.condition) : null));
  const form = useForm<AudienceFormValues>({
    defaultValues: {
      name: audience?.name ?? "",
      description: audience?.description ?? "",
      combinator: initial.builder?.combinator ?? "all",
      rules: initial.builder?.rules ?? [],
    },
  });
  const rules = useFieldArray({ control: form.control, name: "rules" });
  const create = useCreateAudience();
  const update = useUpdateAudience();
  const remove = useDeleteAudience();
  const save = audience ? update : create;

  // null: the builder shows the condition. Otherwise the JSON view holds one it cannot show.
  const [jsonOnly, setJsonOnly] = useState<Condition | null>(initial.builder ? null : initial.condition);
  const [jsonText, setJsonText] = useState(() => pretty(initial.condition));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [jsonFocused, setJsonFocused] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);

  const combinator = form.watch("combinator");
  const watchedRules = form.watch("rules");
  const builderCondition = toCondition({ combinator, rules: watchedRules });
  const condition: Condition = jsonOnly ?? builderCondition;
  const builderJson = pretty(builderCondition);
  const unsaved = form.formState.isDirty || (savedJson !== null && savedJson !== JSON.stringify(condition));
  useUnsavedWarning(canEdit && unsaved);

  // Builder → JSON, live; never while the operator is typing in the JSON view, and never over text
  // that does not parse: that stays as typed, with its error, until the operator fixes it (leaving
  // the field or editing the name must not put the last valid condition back behind the error).
  const settledJson = jsonOnly === null && jsonError === null ? builderJson : jsonText;
  useEffect(() => {
    if (!jsonFocused) setJsonText(settledJson);
  }, [settledJson, jsonFocused]);
  // The JSON view is as tall as the text it shows once left, focused or not. Pressing Save takes
  // the focus from it, and the builder's text then replaces what was typed: were the view's height
  // to follow that, Save would move out from under the pointer between press and release, and the
  // click would go to whatever is there instead (seen as a Save click that did nothing).
  const jsonRows = Math.min(18, Math.max(5, settledJson.split("\n").length + 1));

  // JSON → builder, at every change that parses.
  const onJsonChange = (text: string) => {
    setJsonText(text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      setJsonError(`Not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      setJsonError("A condition is a JSON object, such as { \"cf_device_type\": \"mobile\" }.");
      return;
    }
    setJsonError(null);
    const state = fromCondition(parsed);
    if (state) {
      setJsonOnly(null);
      form.setValue("combinator", state.combinator);
      rules.replace(state.rules);
    } else {
      setJsonOnly(parsed as Condition);
    }
  };

  const useBuilderInstead = () => {
    setJsonOnly(null);
    setJsonError(null);
    setJsonText(builderJson);
  };

  const onSubmit = (values: AudienceFormValues) => {
    if (jsonError) return;
    if (jsonOnly === null) {
      let ok = true;
      values.rules.forEach((rule, i) => {
        const problem = ruleProblem(rule);
        if (problem) {
          ok = false;
          form.setError(`rules.${i}.value`, { type: "rule", message: problem });
        }
      });
      if (!ok) return;
    }
    const input = { name: values.name.trim(), description: values.description.trim(), condition };
    const options = {
      onSuccess: (saved: Audience) => {
        setSavedJson(JSON.stringify(saved.condition));
        form.reset({ ...values, name: saved.name, description: saved.description });
        if (!audience) void navigate(audienceHref(saved.id), { replace: true, state: { created: true } });
      },
    };
    if (audience) update.mutate({ id: audience.id, input }, options);
    else create.mutate(input, options);
  };

  const onDelete = () => {
    if (!audience) return;
    remove.mutate(audience.id, { onSuccess: () => void navigate(paths.audiences) });
  };

  const title = audience ? audience.name : "New audience";
  return (
    <>
      <title>{`${title} · Audiences · Storefit`}</title>
      <PageHeader title={title} description="Visitors who meet the condition are in the audience; a rule that names it applies to them only." />
      <BackLink />
      <div className="audience-layout">
        <Form form={form} onSubmit={onSubmit} className="audience-form panel" aria-label="Audience">
          <fieldset className="audience-fieldset" disabled={!canEdit}>
            <legend className="visually-hidden">Audience</legend>
            {save.isError ? <FormError>Could not save: {save.error.message}</FormError> : null}
            {(save.isSuccess || justCreated) && !form.formState.isDirty && savedJson === JSON.stringify(condition) ? (
              <p className="notice notice--success" role="status" data-testid="audience-saved">
                {save.isSuccess ? "Saved." : "Created."} Rules that use this audience apply it from the next page view.
              </p>
            ) : null}
            <TextInput
              control={form.control}
              name="name"
              label="Name"
              rules={{ validate: (v) => (v.trim() === "" ? "Give the audience a name." : v.length > 200 ? "At most 200 characters." : true) }}
            />
            <TextInput
              control={form.control}
              name="description"
              label={
                <>
                  Description <span className="muted">(optional)</span>
                </>
              }
              rules={{ maxLength: 2000 }}
            />

            <h2 className="section-title">Condition</h2>
            {jsonOnly !== null ? (
              <div className="notice notice--warning" role="status" data-testid="builder-unavailable">
                The builder cannot show this condition (it uses nesting or operators beyond its rules): edit it as
                JSON below.{" "}
                {canEdit ? (
                  <button type="button" className="button button--secondary button--small" onClick={useBuilderInstead}>
                    Start again in the builder
                  </button>
                ) : null}
              </div>
            ) : (
              <ConditionBuilder fields={rules} newRule={NEW_RULE} />
            )}

            <Field
              label="Condition as JSON"
              hint="The stored form. Edits here update the builder as soon as they are valid JSON."
              error={jsonError ?? undefined}
              alert
            >
              {(control) => (
                <textarea
                  {...control}
                  className="field__input audience-json"
                  spellCheck={false}
                  rows={jsonRows}
                  value={jsonText}
                  onChange={(e) => onJsonChange(e.target.value)}
                  onFocus={() => setJsonFocused(true)}
                  onBlur={() => setJsonFocused(false)}
                  data-testid="condition-json"
                />
              )}
            </Field>

            {canEdit ? (
              <div className="form-actions">
                <SubmitButton pending={save.isPending} pendingLabel="Saving…" disabled={jsonError !== null}>
                  {audience ? "Save audience" : "Create audience"}
                </SubmitButton>
                {audience ? (
                  confirmingDelete ? (
                    <span className="confirm">
                      <span>Delete “{audience.name}”?</span>
                      <button type="button" className="button button--danger button--small" onClick={onDelete} disabled={remove.isPending}>
                        Yes, delete
                      </button>
                      <button type="button" className="button button--secondary button--small" onClick={() => setConfirmingDelete(false)}>
                        Keep it
                      </button>
                    </span>
                  ) : (
                    <button type="button" className="button button--secondary" onClick={() => setConfirmingDelete(true)}>
                      Delete…
                    </button>
                  )
                ) : null}
              </div>
            ) : null}
            {remove.isError ? <FormError>Could not delete: {remove.error.message}</FormError> : null}
          </fieldset>
        </Form>
        <AudienceTester condition={condition} conditionError={jsonError} />
      </div>
    </>
  );
}
