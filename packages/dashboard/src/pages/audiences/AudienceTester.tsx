// "Would this visitor match?": the operator describes a visitor, the service evaluates the
// condition on screen (saved or not) with the config call's own attribute derivation and
// evaluator (POST /api/audiences/evaluate), and answers clause by clause.
import { useId } from "react";
import { useForm } from "react-hook-form";
import type { Condition, Json } from "@storefit/contract";
import { type AudienceEvaluateResponse, type ClauseVerdict, useEvaluateAudience } from "../../api/audiences";
import { type JsonField, JSON_FIELDS, TESTER_DEFAULTS, type TesterValues, parseObject, visitorOf } from "./testerVisitor";

export function AudienceTester({ condition, conditionError }: { condition: Condition; conditionError: string | null }) {
  const id = useId();
  const evaluate = useEvaluateAudience();
  const form = useForm<TesterValues>({ defaultValues: TESTER_DEFAULTS });
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit((values) => {
    const json = {} as Record<JsonField, Record<string, Json>>;
    let ok = true;
    for (const [name, label, example] of JSON_FIELDS) {
      const parsed = parseObject(values[name], label, example);
      if (typeof parsed === "string") {
        form.setError(name, { message: parsed });
        ok = false;
      } else {
        json[name] = parsed;
      }
    }
    if (ok) evaluate.mutate({ condition, visitor: visitorOf(values, json) });
  });

  const field = (name: keyof TesterValues, label: string, placeholder?: string) => (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      <input id={`${id}-${name}`} className="field__input" placeholder={placeholder} {...form.register(name)} />
    </div>
  );

  return (
    <section className="panel tester" aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`}>
        Would this visitor match?
      </h2>
      <p className="panel__description">Describe a visitor and test the condition as it is on screen, saved or not.</p>
      <form className="tester__form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Test a visitor">
        <div className="tester__grid">
          <div className="field">
            <label className="field__label" htmlFor={`${id}-device`}>
              Device type
            </label>
            <select id={`${id}-device`} className="field__input" {...form.register("device")}>
              <option value="desktop">desktop</option>
              <option value="mobile">mobile</option>
              <option value="tablet">tablet</option>
              <option value="">(not known)</option>
            </select>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-firstTime`}>
              First-time visitor
            </label>
            <select id={`${id}-firstTime`} className="field__input" {...form.register("firstTime")}>
              <option value="true">yes</option>
              <option value="false">no</option>
              <option value="">(not known)</option>
            </select>
          </div>
          {field("browser", "Browser")}
          {field("browserVersion", "Browser version")}
          {field("os", "Operating system", "e.g. iOS")}
          {field("url", "Page URL", "https://shop.example/products/…")}
          {field("utmSource", "Campaign source (utm_source)")}
          {field("utmMedium", "Campaign medium (utm_medium)")}
          {field("utmCampaign", "Campaign name (utm_campaign)")}
          {field("utmTerm", "Campaign term (utm_term)")}
          {field("utmContent", "Campaign content (utm_content)")}
          {field("utmAdgroup", "Ad group (utm_adgroup)")}
          {field("gclid", "Google Ads click (gclid)")}
          {field("fbclid", "Meta ads click (fbclid)")}
          {field("tags", "Tags (comma-separated)")}
        </div>
        {JSON_FIELDS.map(([name, label, example]) => (
          <div className="field" key={name}>
            <label className="field__label" htmlFor={`${id}-${name}`}>
              {label} (JSON)
            </label>
            <textarea
              id={`${id}-${name}`}
              className="field__input mono"
              rows={2}
              placeholder={example}
              aria-invalid={errors[name] ? true : undefined}
              aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
              {...form.register(name)}
            />
            {errors[name] ? (
              <p className="field__error" id={`${id}-${name}-error`}>
                {errors[name].message}
              </p>
            ) : null}
          </div>
        ))}
        <button type="submit" className="button button--primary" disabled={evaluate.isPending || conditionError !== null}>
          Test this visitor
        </button>
        {conditionError ? <p className="muted">Fix the condition's JSON first.</p> : null}
      </form>
      <div aria-live="polite">
        {evaluate.isError ? (
          <p className="form__error" role="alert">
            {evaluate.error.message}
          </p>
        ) : null}
        {evaluate.data && !evaluate.isPending ? <Verdict answer={evaluate.data} /> : null}
      </div>
    </section>
  );
}

const show = (value: Json | undefined) => (value === undefined ? "not set" : JSON.stringify(value));

function clauseText(c: ClauseVerdict): string {
  if (c.operator === "$and") return "all of:";
  if (c.operator === "$or") return "any of:";
  if (c.operator === "$nor") return "none of:";
  if (c.operator === "$not") return "not:";
  return `${c.attribute} ${JSON.stringify(c.expected)} — visitor has ${show(c.actual)}`;
}

function Verdict({ answer }: { answer: AudienceEvaluateResponse }) {
  return (
    <div className={answer.matches ? "verdict verdict--match" : "verdict verdict--miss"}>
      <p className="verdict__title" data-testid="tester-verdict">
        {answer.matches ? "Match: this visitor is in the audience" : "No match: this visitor is not in the audience"}
      </p>
      {answer.clauses.length > 0 ? (
        <ul className="verdict__clauses">
          {answer.clauses.map((c) => (
            <li key={c.path} style={{ marginInlineStart: `${c.depth * 16}px` }} data-testid="tester-clause">
              <span className={c.matches ? "verdict__mark verdict__mark--yes" : "verdict__mark verdict__mark--no"}>
                {c.matches ? "✓" : "✗"}
                <span className="visually-hidden">{c.matches ? " matches" : " does not match"}</span>
              </span>{" "}
              <span className="mono">{clauseText(c)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">The condition is empty: everyone matches.</p>
      )}
    </div>
  );
}
