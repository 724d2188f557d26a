// Product images drawn as inline SVG, so the shop needs no asset files and downloads nothing.
// `/images/{handle}-{n}.svg`: view 1 is the pack shot, view 2 the texture and ingredients,
// view 3 the product in use. Colours and shape come from the handle, so they are stable.
import { escapeXml } from "./html";
import type { Product } from "./types";

type Palette = { background: string; accent: string; ink: string };

const PALETTES: readonly Palette[] = [
  { background: "#e3f4ec", accent: "#7cc4a4", ink: "#2f5e4c" }, // mint
  { background: "#fde8dc", accent: "#f2a07b", ink: "#7a3f24" }, // peach
  { background: "#ece6f7", accent: "#a391d6", ink: "#4a3b7a" }, // lavender
  { background: "#e1eef9", accent: "#7fb0dd", ink: "#2c5577" }, // sky
  { background: "#fcf3d4", accent: "#e6c35c", ink: "#6e5714" }, // butter
  { background: "#fbe3ea", accent: "#e79ab1", ink: "#7a2e46" }, // rose
];

type Shape = "bottle" | "jar" | "tube" | "stick" | "pack" | "box";

/** FNV-1a, enough to spread handles over the palettes deterministically. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function paletteFor(handle: string): Palette {
  // PALETTES is non-empty, so the index is always in range.
  return PALETTES[hash(handle) % PALETTES.length] as Palette;
}

function shapeFor(handle: string): Shape {
  if (handle.includes("wipes")) return "pack";
  if (/(^|-)(set|fizzies)($|-)/.test(handle)) return "box";
  if (/stick|lip-balm/.test(handle)) return "stick";
  if (/sunscreen|sun-cream|gel/.test(handle)) return "tube";
  if (/balm|cream/.test(handle)) return "jar";
  return "bottle";
}

/** The product drawn around (300, 270), white with accent details. */
function drawShape(shape: Shape, p: Palette): string {
  const outline = `fill="#ffffff" stroke="${p.accent}" stroke-width="6"`;
  const label = (x: number, y: number, w: number, h: number) =>
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="12" fill="${p.accent}" opacity="0.35"/>` +
    `<path d="M${x + w / 2} ${y + h * 0.75} q-22 -18 -2 -40 q20 18 2 40 z M${x + w / 2} ${y + h * 0.75} q22 -14 30 -34 q-24 2 -30 34 z" fill="${p.ink}" opacity="0.7"/>`;
  switch (shape) {
    case "bottle":
      return (
        `<rect x="250" y="128" width="100" height="22" rx="8" fill="${p.accent}"/>` +
        `<rect x="340" y="132" width="52" height="12" rx="5" fill="${p.accent}"/>` +
        `<rect x="272" y="150" width="56" height="40" fill="${p.accent}"/>` +
        `<rect x="220" y="188" width="160" height="232" rx="30" ${outline}/>` +
        label(240, 250, 120, 110)
      );
    case "jar":
      return (
        `<rect x="200" y="196" width="200" height="52" rx="14" fill="${p.accent}"/>` +
        `<rect x="188" y="242" width="224" height="160" rx="34" ${outline}/>` +
        label(228, 272, 144, 100)
      );
    case "tube":
      return (
        `<rect x="238" y="118" width="124" height="20" rx="4" fill="${p.accent}"/>` +
        `<path d="M246 138 h108 l-14 252 h-80 z" ${outline} stroke-linejoin="round"/>` +
        `<rect x="262" y="388" width="76" height="42" rx="10" fill="${p.accent}"/>` +
        label(262, 220, 76, 110)
      );
    case "stick":
      return (
        `<rect x="256" y="150" width="88" height="250" rx="34" ${outline}/>` +
        `<rect x="256" y="150" width="88" height="82" rx="34" fill="${p.accent}"/>` +
        label(268, 262, 64, 100)
      );
    case "pack":
      return (
        `<rect x="160" y="200" width="280" height="180" rx="44" ${outline}/>` +
        `<ellipse cx="300" cy="242" rx="64" ry="16" fill="${p.accent}"/>` +
        label(230, 270, 140, 90)
      );
    case "box":
      return (
        `<rect x="176" y="186" width="248" height="206" rx="16" ${outline}/>` +
        `<rect x="285" y="186" width="30" height="206" fill="${p.accent}" opacity="0.8"/>` +
        `<rect x="176" y="272" width="248" height="28" fill="${p.accent}" opacity="0.8"/>` +
        `<circle cx="280" cy="176" r="20" fill="none" stroke="${p.accent}" stroke-width="10"/>` +
        `<circle cx="320" cy="176" r="20" fill="none" stroke="${p.accent}" stroke-width="10"/>`
      );
  }
}

/** Texture swatch with a few leaves and drops around it (view 2). */
function drawTexture(p: Palette): string {
  return (
    `<circle cx="300" cy="260" r="150" fill="#ffffff" opacity="0.9"/>` +
    `<path d="M190 270 q110 -120 220 0 q-110 90 -220 0 z" fill="${p.accent}" opacity="0.45"/>` +
    `<path d="M130 150 q40 -60 90 -20 q-40 60 -90 20 z" fill="${p.ink}" opacity="0.35"/>` +
    `<path d="M470 160 q-40 -60 -90 -20 q40 60 90 20 z" fill="${p.ink}" opacity="0.35"/>` +
    `<circle cx="150" cy="360" r="16" fill="${p.accent}"/>` +
    `<circle cx="455" cy="370" r="22" fill="${p.accent}" opacity="0.7"/>` +
    `<circle cx="420" cy="420" r="10" fill="${p.accent}"/>`
  );
}

/** Bubbles around a smaller pack shot (view 3). */
function drawInUse(shape: Shape, p: Palette): string {
  const bubbles = [
    [90, 110, 30],
    [510, 90, 22],
    [140, 380, 40],
    [480, 330, 34],
    [540, 200, 14],
    [60, 250, 18],
  ]
    .map(([cx, cy, r]) => `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#ffffff" opacity="0.75"/>`)
    .join("");
  return `${bubbles}<g transform="translate(75 40) scale(0.75)">${drawShape(shape, p)}</g>`;
}

/** Splits a title into at most three lines of about `width` characters. */
export function wrapTitle(title: string, width = 20): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of title.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  if (lines.length > 3) {
    const kept = lines.slice(0, 3);
    kept[2] = `${kept[2] ?? ""}…`;
    return kept;
  }
  return lines;
}

const VIEW_CAPTIONS = ["", "Texture & ingredients", "Bath-time approved"] as const;

/** The SVG document of image `index` (1-based) of a product. */
export function productImageSvg(product: Product, index: number): string {
  const p = paletteFor(product.handle);
  const shape = shapeFor(product.handle);
  const art =
    index === 1 ? drawShape(shape, p) : index === 2 ? drawTexture(p) : drawInUse(shape, p);
  const caption = VIEW_CAPTIONS[index - 1] ?? "";
  const lines = wrapTitle(product.title);
  const firstLineY = 490 - (lines.length - 1) * 19;
  const titleText = lines
    .map(
      (line, i) =>
        `<text x="300" y="${firstLineY + i * 38}" text-anchor="middle" font-size="32" font-weight="700" fill="${p.ink}">${escapeXml(line)}</text>`,
    )
    .join("");
  const label = `${product.title} — image ${index}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600" role="img" aria-label="${escapeXml(label)}">` +
    `<title>${escapeXml(label)}</title>` +
    `<rect width="600" height="600" fill="${p.background}"/>` +
    `<g font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">` +
    `<text x="300" y="60" text-anchor="middle" font-size="20" letter-spacing="3" fill="${p.ink}" opacity="0.7">LITTLE SPROUTS</text>` +
    art +
    titleText +
    (caption
      ? `<text x="300" y="575" text-anchor="middle" font-size="20" fill="${p.ink}" opacity="0.75">${escapeXml(caption)}</text>`
      : "") +
    `</g></svg>`
  );
}

/** The shop's favicon: a two-leaf sprout. */
export const FAVICON_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` +
  `<rect width="64" height="64" rx="14" fill="#e3f4ec"/>` +
  `<path d="M32 54 V30" stroke="#2f5e4c" stroke-width="4" stroke-linecap="round"/>` +
  `<path d="M32 32 q-22 -2 -20 -20 q20 0 20 20 z" fill="#7cc4a4"/>` +
  `<path d="M32 30 q20 0 20 -18 q-20 -2 -20 18 z" fill="#a5d9c0"/>` +
  `</svg>`;

/** Parses "/images/{handle}-{n}.svg" into its handle and 1-based index. */
export function parseImagePath(pathname: string): { handle: string; index: number } | undefined {
  const match = /^\/images\/([a-z0-9]+(?:-[a-z0-9]+)*)-(\d{1,2})\.svg$/.exec(pathname);
  if (!match?.[1] || !match[2]) return undefined;
  return { handle: match[1], index: Number(match[2]) };
}
