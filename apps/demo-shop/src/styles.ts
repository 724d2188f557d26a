// The shop's one stylesheet, served at /styles.css: system fonts, a soft pastel palette, and a
// layout that works from 390 px (a phone) up.
export const STYLES_CSS = `
:root {
  --bg: #fffaf5;
  --surface: #ffffff;
  --ink: #33302e;
  --muted: #6f6a66;
  --mint: #cdeee0;
  --mint-strong: #2f7a5d;
  --peach: #fde3d4;
  --lavender: #e9e2f8;
  --rose: #f9dbe4;
  --line: #eee6de;
  --radius: 16px;
  --shadow: 0 2px 10px rgba(80, 60, 40, 0.08);
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 16px;
  line-height: 1.5;
  color: var(--ink);
  background: var(--bg);
}
a { color: var(--mint-strong); }
img { max-width: 100%; height: auto; display: block; }
h1, h2, h3 { line-height: 1.2; margin: 0 0 0.5em; }
.container { max-width: 1080px; margin: 0 auto; padding: 0 16px; }

.announcement-bar {
  background: var(--lavender);
  text-align: center;
  font-size: 14px;
  padding: 8px 16px;
}
.site-header { background: var(--surface); border-bottom: 1px solid var(--line); }
.site-header .container {
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  padding-top: 14px;
  padding-bottom: 14px;
  flex-wrap: wrap;
}
.logo {
  display: flex;
  align-items: center;
  gap: 8px;
  font-weight: 800;
  font-size: 20px;
  color: var(--ink);
  text-decoration: none;
}
.logo img { width: 32px; height: 32px; }
.region-badge {
  font-size: 12px;
  font-weight: 700;
  background: var(--mint);
  color: var(--mint-strong);
  border-radius: 999px;
  padding: 2px 8px;
}
.site-nav { display: flex; gap: 16px; align-items: center; flex-wrap: wrap; font-size: 15px; }
.site-nav a { color: var(--ink); text-decoration: none; }
.site-nav a:hover { text-decoration: underline; }
.cart-link { font-weight: 700; }
.cart-count {
  display: inline-block;
  min-width: 22px;
  text-align: center;
  background: var(--peach);
  border-radius: 999px;
  padding: 0 6px;
  margin-left: 4px;
}

main { padding: 24px 0 48px; }

.hero {
  background: linear-gradient(135deg, var(--mint), var(--lavender));
  border-radius: var(--radius);
  padding: 40px 24px;
  margin-bottom: 32px;
}
.hero-title { font-size: clamp(28px, 6vw, 44px); }
.hero-subtitle { color: var(--ink); max-width: 560px; margin: 0 0 20px; }

.btn {
  display: inline-block;
  appearance: none;
  border: 0;
  border-radius: 999px;
  background: var(--mint-strong);
  color: #fff;
  font: inherit;
  font-weight: 700;
  padding: 12px 24px;
  text-decoration: none;
  cursor: pointer;
}
.btn:hover { filter: brightness(1.08); }
.btn:disabled { opacity: 0.6; cursor: default; }
.btn-secondary { background: var(--surface); color: var(--mint-strong); border: 2px solid var(--mint); }

.product-grid {
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(220px, 1fr));
  gap: 20px;
}
.product-card {
  background: var(--surface);
  border-radius: var(--radius);
  box-shadow: var(--shadow);
  overflow: hidden;
}
.product-card-link { display: block; color: var(--ink); text-decoration: none; }
.product-card-image { width: 100%; aspect-ratio: 1; object-fit: cover; }
.product-card-body { display: block; padding: 12px 16px 16px; }
.product-card-title { display: block; font-weight: 700; }
.product-card-price { display: block; color: var(--muted); }

.breadcrumbs { font-size: 14px; color: var(--muted); margin-bottom: 16px; }
.product { display: grid; grid-template-columns: 1fr 1fr; gap: 32px; align-items: start; }
.product-gallery { display: flex; flex-direction: column; gap: 12px; }
.product-media {
  width: 100%;
  aspect-ratio: 1;
  border-radius: var(--radius);
  background: var(--surface);
  box-shadow: var(--shadow);
}
.product-thumbs { display: flex; gap: 10px; }
.product-thumb {
  padding: 0;
  border: 2px solid transparent;
  border-radius: 12px;
  background: none;
  cursor: pointer;
  width: 76px;
  overflow: hidden;
}
.product-thumb[aria-current="true"] { border-color: var(--mint-strong); }
.product-title { font-size: clamp(26px, 5vw, 36px); }
.product-price { font-size: 26px; font-weight: 800; }
.product-tax { color: var(--muted); font-size: 14px; margin: 4px 0 20px; }
.checkout-note { color: var(--muted); font-size: 14px; margin: 4px 0 0; }
.product-description { margin: 0 0 24px; }
.add-to-cart { width: 100%; max-width: 360px; font-size: 17px; padding: 14px 24px; }
.cart-status { min-height: 1.5em; color: var(--mint-strong); font-weight: 600; }
.product-perks { list-style: none; padding: 0; margin: 24px 0 0; display: grid; gap: 8px; }
.product-perks li { background: var(--peach); border-radius: 12px; padding: 8px 12px; font-size: 14px; }

.panel {
  background: var(--surface);
  border-radius: var(--radius);
  box-shadow: var(--shadow);
  padding: 24px;
}
.cart-table { width: 100%; border-collapse: collapse; }
.cart-table th, .cart-table td { text-align: left; padding: 10px 6px; border-bottom: 1px solid var(--line); }
.cart-table input {
  width: 64px;
  font: inherit;
  padding: 4px 8px;
  border: 1px solid #d9d0c7;
  border-radius: 8px;
}
.cart-summary { display: flex; justify-content: space-between; align-items: center; gap: 16px; flex-wrap: wrap; margin-top: 20px; }
.cart-total-line { font-size: 20px; font-weight: 800; }
.visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
}
.link-button { background: none; border: 0; color: var(--mint-strong); text-decoration: underline; cursor: pointer; font: inherit; padding: 0; }

.checkout { display: grid; grid-template-columns: 3fr 2fr; gap: 24px; align-items: start; }
.form { display: grid; gap: 14px; }
.form label { display: grid; gap: 4px; font-weight: 600; font-size: 14px; }
.form input, .form textarea, .form select {
  font: inherit;
  font-weight: 400;
  padding: 10px 12px;
  border: 1px solid #d9d0c7;
  border-radius: 10px;
  background: #fff;
  width: 100%;
}
.form textarea { min-height: 120px; resize: vertical; }
.form-row { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.notice { background: var(--rose); border-radius: 12px; padding: 12px 16px; margin-bottom: 16px; }
.notice-success { background: var(--mint); }
.order-lines { list-style: none; padding: 0; margin: 0 0 12px; display: grid; gap: 6px; }
.order-lines li { display: flex; justify-content: space-between; gap: 12px; }

.site-footer { border-top: 1px solid var(--line); color: var(--muted); font-size: 14px; padding: 24px 0; }
.site-footer .container { display: flex; justify-content: space-between; flex-wrap: wrap; gap: 12px; }

@media (max-width: 720px) {
  .product, .checkout { grid-template-columns: 1fr; gap: 20px; }
  .hero { padding: 28px 18px; }
  .form-row { grid-template-columns: 1fr; }
  .product-grid { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 12px; }
  .product-card-body { padding: 10px 12px 12px; font-size: 14px; }
  .cart-table th:nth-child(2), .cart-table td:nth-child(2) { display: none; }
}
`;
