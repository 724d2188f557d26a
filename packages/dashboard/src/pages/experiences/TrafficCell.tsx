import { useExperience } from "../../api/experiences";

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

/**
 * Traffic of each rule and the split of its variations ("100% · 50/50"), one line per rule. The list answer has no
 * traffic, so each row reads its experience (cached, and the editor reuses it).
 */
export function TrafficCell({ experienceId }: { experienceId: string }) {
  const { data, isError } = useExperience(experienceId);
  if (isError) return <span className="muted">Unavailable</span>;
  if (!data) return <span className="muted">…</span>;
  if (data.rules.length === 0) return <span className="muted">No rules</span>;
  return (
    <ul className="exp-traffic" data-testid="traffic">
      {data.rules.map((r) => {
        const total = r.behaviour.variations.reduce((n, v) => n + v.weight, 0);
        const split = r.behaviour.variations
          .map((v) => (total > 0 ? Math.round((v.weight / total) * 100) : 0))
          .join("/");
        return (
          <li key={r.id}>
            {percent(r.behaviour.traffic_allocation)} · {split}
          </li>
        );
      })}
    </ul>
  );
}
