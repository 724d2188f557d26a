// "Would this visitor match?": the operator describes a visitor, the service evaluates the
// condition on screen (saved or not) with the config call's own attribute derivation and
// evaluator (POST /api/audiences/evaluate), and answers clause by clause.
import { useId } from "react";
import { useForm } from "react-hook-form";
import type { Condition, Json } from "@storefit/contract";
import { type AudienceEvaluateResponse, type ClauseVerdict, useEvaluateAudience } from "../../api/audiences";

type TesterValues = {
  device: string;
  browser: string;
  browserVersion: string;
  os: string;
  firstTime: "" | "true" | "false";
  url: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  tags: string;
  properties: string;
};

const DEFAULTS: TesterValues = {
  device: "desktop",
  browser: "Chrome",
  browserVersion: "131",
  os: "",
  firstTime: "true",
  url: "",
  utmSource: "",
  utmMedium: "",
  utmCampaign: "",
  tags: "",
  properties: "",
};

function parseProperties(text: string): Record<string, Json> | string {
  if (text.trim() === "") return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, Json>;
  } catch {
    // reported below
  }
  return 'Other properties must be a JSON object, such as { "tier": "gold" }.';
}

/** The visitor as the storefront script would send it (spec §3 User). */
function visitorOf(values: TesterValues, properties: Record<string, Json>): { user: Record<string, Json>; url?: string } {
  const props: Record<string, Json> = { ...properties };
  if (values.device) props.cf_device_type = values.device;
  if (values.browser.trim()) props.cf_browser_name = values.browser.trim();
  if (values.browserVersion.trim()) props.cf_browser_version = values.browserVersion.trim();
  if (values.os.trim()) props.cf_os_name = values.os.trim();
  if (values.firstTime) props.is_first_time_visitor = values.firstTime === "true";
  const user: Record<string, Json> = { user_customer_id: "dashboard-tester", anonymous: true, properties: props };
  const tags = values.tags.split(",").map((t) => t.trim()).filter(Boolean);
  if (tags.length) user.tags = tags;
  if (values.utmSource.trim()) user.utm_source = values.utmSource.trim();
  if (values.utmMedium.trim()) user.utm_medium = values.utmMedium.trim();
  if (values.utmCampaign.trim()) user.utm_campaign = values.utmCampaign.trim();
  return values.url.trim() ? { user, url: values.url.trim() } : { user };
}

export function AudienceTester({ condition, conditionError }: { condition: Condition; conditionError: string | null }) {
  const id = useId();
  const evaluate = useEvaluateAudience();
  const form = useForm<TesterValues>({ defaultValues: DEFAULTS });
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit((values) => {
    const properties = parseProperties(values.properties);
    if (typeof properties === "string") {
      form.setError("properties", { message: properties });
      return;
    }
    evaluate.mutate({ condition, visitor: visitorOf(values, properties) });
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
          {field("utmSource", "utm_source")}
          {field("utmMedium", "utm_medium")}
          {field("utmCampaign", "utm_campaign")}
          {field("tags", "Tags (comma-separated)")}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-properties`}>
            Other properties (JSON)
          </label>
          <textarea
            id={`${id}-properties`}
            className="field__input mono"
            rows={2}
            placeholder='{ "tier": "gold" }'
            aria-invalid={errors.properties ? true : undefined}
            aria-describedby={errors.properties ? `${id}-properties-error` : undefined}
            {...form.register("properties")}
          />
          {errors.properties ? (
            <p className="field__error" id={`${id}-properties-error`}>
              {errors.properties.message}
            </p>
          ) : null}
        </div>
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
