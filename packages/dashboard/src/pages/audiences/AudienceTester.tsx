// "Would this visitor match?": the operator describes a visitor, the service evaluates the
// condition on screen (saved or not) with the config call's own attribute derivation and
// evaluator (POST /api/audiences/evaluate), and answers clause by clause.
import { useId } from "react";
import { useForm } from "react-hook-form";
import type { Condition, Json } from "@storefit/contract";
import { type AudienceEvaluateResponse, type ClauseVerdict, useEvaluateAudience } from "../../api/audiences";
import { Form, FormError, Select, SubmitButton, TextArea, TextInput } from "../../components/form";
import { type JsonField, JSON_FIELDS, TESTER_DEFAULTS, type TesterValues, parseObject, visitorOf } from "./testerVisitor";

/** The tester's one-line inputs (the others are choices or JSON). */
type TextField = Exclude<keyof TesterValues, "device" | "firstTime" | JsonField>;

const TEXT_FIELDS: readonly [TextField, string, string?][] = [
  ["browser", "Browser"],
  ["browserVersion", "Browser version"],
  ["os", "Operating system", "e.g. iOS"],
  ["url", "Page URL", "https://shop.example/products/…"],
  ["utmSource", "Campaign source (utm_source)"],
  ["utmMedium", "Campaign medium (utm_medium)"],
  ["utmCampaign", "Campaign name (utm_campaign)"],
  ["utmTerm", "Campaign term (utm_term)"],
  ["utmContent", "Campaign content (utm_content)"],
  ["utmAdgroup", "Ad group (utm_adgroup)"],
  ["gclid", "Google Ads click (gclid)"],
  ["fbclid", "Meta ads click (fbclid)"],
  ["tags", "Tags (comma-separated)"],
];

const DEVICES = [
  { value: "desktop", label: "desktop" },
  { value: "mobile", label: "mobile" },
  { value: "tablet", label: "tablet" },
  { value: "", label: "(not known)" },
];

const FIRST_TIME = [
  { value: "true", label: "yes" },
  { value: "false", label: "no" },
  { value: "", label: "(not known)" },
];

export function AudienceTester({ condition, conditionError }: { condition: Condition; conditionError: string | null }) {
  const id = useId();
  const evaluate = useEvaluateAudience();
  const form = useForm<TesterValues>({ defaultValues: TESTER_DEFAULTS });

  const test = (values: TesterValues) => {
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
  };

  return (
    <section className="panel tester" aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`}>
        Would this visitor match?
      </h2>
      <p className="panel__description">Describe a visitor and test the condition as it is on screen, saved or not.</p>
      <Form form={form} onSubmit={test} className="tester__form" aria-label="Test a visitor">
        <div className="tester__grid">
          <Select control={form.control} name="device" label="Device type" options={DEVICES} />
          <Select control={form.control} name="firstTime" label="First-time visitor" options={FIRST_TIME} />
          {TEXT_FIELDS.map(([name, label, placeholder]) => (
            <TextInput key={name} control={form.control} name={name} label={label} placeholder={placeholder} />
          ))}
        </div>
        {JSON_FIELDS.map(([name, label, example]) => (
          <TextArea key={name} control={form.control} name={name} label={`${label} (JSON)`} mono rows={2} placeholder={example} />
        ))}
        <SubmitButton pending={evaluate.isPending} disabled={conditionError !== null}>
          Test this visitor
        </SubmitButton>
        {conditionError ? <p className="muted">Fix the condition's JSON first.</p> : null}
      </Form>
      <div aria-live="polite">
        {evaluate.isError ? <FormError>{evaluate.error.message}</FormError> : null}
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
