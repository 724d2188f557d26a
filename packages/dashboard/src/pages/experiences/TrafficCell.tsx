import type { ExperienceSummary } from "@storefit/contract";

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

/** Traffic of each rule and the split of its variations ("100% · 50/50"), one line per rule. */
export function TrafficCell({ traffic }: { traffic: ExperienceSummary["traffic"] }) {
  if (traffic.length === 0) return <span className="muted">No rules</span>;
  return (
    <ul className="exp-traffic" data-testid="traffic">
      {traffic.map((r) => {
        const total = r.weights.reduce((n, w) => n + w, 0);
        const split = r.weights.map((w) => (total > 0 ? Math.round((w / total) * 100) : 0)).join("/");
        return (
          <li key={r.rule_id}>
            {percent(r.traffic_allocation)} · {split}
          </li>
        );
      })}
    </ul>
  );
}
