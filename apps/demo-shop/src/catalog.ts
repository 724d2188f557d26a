// The Little Sprouts catalog: 25 products on the US domain, 5 on the UK one (product.md §4,
// storefront-script.md §2 "about 30 product pages, most on the first shop domain").
// The seeded page configurations in packages/server/src/seed/demo-pages.ts list the same handles;
// test/catalog.test.ts keeps the two in step.
import { UK_DOMAIN, US_DOMAIN } from "./shops";
import type { Currency, Product, ShopDomain } from "./types";

const US_TAX_NOTE = "Tax included. Shipping calculated at checkout.";
const US_TAX_NOTE_FREE_SHIPPING = "Tax included. Free shipping on this item.";
const UK_TAX_NOTE = "Tax included (20% VAT). Shipping calculated at checkout.";

type Entry = {
  handle: string;
  title: string;
  description: string;
  price: number;
  /** How many gallery images the product has (2 or 3). */
  image_count: 2 | 3;
  tax_note?: string;
};

const US_ENTRIES: readonly Entry[] = [
  {
    handle: "gentle-baby-wash",
    title: "Gentle Baby Wash",
    description:
      "A soft, tear-free cleanser with oat and calendula for everyday bath time. Fragrance-free and pH-balanced for newborn skin.",
    price: 12,
    image_count: 3,
  },
  {
    handle: "tear-free-shampoo-and-body-wash",
    title: "Tear-Free Shampoo & Body Wash",
    description:
      "One bottle from head to toe. A mild coconut-based lather that rinses clean without stinging little eyes.",
    price: 14,
    image_count: 3,
  },
  {
    handle: "kids-mineral-sunscreen-spf50",
    title: "Kids Mineral Sunscreen SPF 50",
    description:
      "Broad-spectrum zinc oxide protection that rubs in without a white cast. Water-resistant for 80 minutes.",
    price: 18,
    image_count: 3,
  },
  {
    handle: "kids-sunscreen-stick-spf30",
    title: "Kids Sunscreen Stick SPF 30",
    description:
      "A twist-up mineral stick for noses, ears and cheeks. Fits in a pocket for the playground.",
    price: 12.5,
    image_count: 2,
  },
  {
    handle: "zinc-diaper-rash-cream",
    title: "Zinc Diaper Rash Cream",
    description:
      "A thick 20% zinc barrier cream with shea butter that soothes redness and protects overnight.",
    price: 11,
    image_count: 3,
  },
  {
    handle: "calendula-baby-lotion",
    title: "Calendula Baby Lotion",
    description:
      "A light, fast-absorbing lotion with calendula and sunflower oil for soft, comfortable skin after the bath.",
    price: 13.5,
    image_count: 2,
  },
  {
    handle: "oatmeal-eczema-cream",
    title: "Colloidal Oatmeal Eczema Cream",
    description:
      "A rich, steroid-free cream with colloidal oatmeal and ceramides for dry, itchy and eczema-prone skin.",
    price: 16,
    image_count: 3,
  },
  {
    handle: "sweet-almond-baby-massage-oil",
    title: "Sweet Almond Baby Massage Oil",
    description:
      "A gentle oil for calming bedtime massage. Cold-pressed sweet almond and jojoba, nothing else.",
    price: 15,
    image_count: 2,
  },
  {
    handle: "kids-detangling-spray",
    title: "Kids Detangling Spray",
    description:
      "Spray, comb, done. A leave-in conditioner with aloe that takes the tears out of tangles.",
    price: 10,
    image_count: 2,
  },
  {
    handle: "lavender-sleepy-bubble-bath",
    title: "Lavender Sleepy Bubble Bath",
    description:
      "Mountains of gentle bubbles with a whisper of lavender to start the bedtime routine.",
    price: 12,
    image_count: 3,
  },
  {
    handle: "cradle-cap-foam-shampoo",
    title: "Cradle Cap Foam Shampoo",
    description:
      "A rich foam with borage and sunflower oils that softens and lifts cradle cap flakes gently.",
    price: 13,
    image_count: 2,
  },
  {
    handle: "all-purpose-nourishing-balm",
    title: "All-Purpose Nourishing Balm",
    description:
      "Our do-everything balm for chapped cheeks, dry elbows and scrapes. Beeswax, olive oil and calendula.",
    price: 9.5,
    image_count: 3,
  },
  {
    handle: "strawberry-kids-lip-balm",
    title: "Strawberry Kids Lip Balm",
    description:
      "A naturally flavoured lip balm with shea butter, sized for small hands and small lips.",
    price: 4.5,
    image_count: 2,
  },
  {
    handle: "fragrance-free-body-lotion",
    title: "Fragrance-Free Body Lotion",
    description:
      "A daily moisturiser for the whole family, free from fragrance, dyes and essential oils.",
    price: 14.5,
    image_count: 2,
  },
  {
    handle: "kids-curl-cream",
    title: "Kids Curl Cream",
    description:
      "Defines and softens curls and coils without crunch. Shea butter, flaxseed and a light hold.",
    price: 13,
    image_count: 2,
  },
  {
    handle: "foaming-hand-soap-for-kids",
    title: "Foaming Hand Soap for Kids",
    description:
      "A cheerful foaming pump that makes twenty seconds of hand washing feel short. Pear scent.",
    price: 8,
    image_count: 2,
  },
  {
    handle: "kids-after-sun-aloe-gel",
    title: "Kids After-Sun Aloe Gel",
    description: "A cooling aloe and cucumber gel for after a long day outdoors.",
    price: 11.5,
    image_count: 2,
  },
  {
    handle: "itch-relief-bug-bite-balm",
    title: "Itch Relief Bug Bite Balm",
    description: "A roll-on balm with chamomile and tea tree that calms itchy bites on the go.",
    price: 9,
    image_count: 2,
  },
  {
    handle: "sensitive-water-wipes",
    title: "Sensitive Water Wipes (3 packs)",
    description:
      "99% water wipes with a drop of fruit extract. Gentle enough for newborns, strong enough for toddlers.",
    price: 10.5,
    image_count: 3,
  },
  {
    handle: "chamomile-bedtime-lotion",
    title: "Chamomile Bedtime Lotion",
    description: "A silky lotion with chamomile and vanilla for the last cuddle of the day.",
    price: 13,
    image_count: 2,
  },
  {
    handle: "cold-weather-cheek-balm",
    title: "Cold-Weather Cheek Balm",
    description: "A protective balm for wind-bitten cheeks and noses on winter walks.",
    price: 10,
    image_count: 2,
  },
  {
    handle: "gentle-kids-face-wash",
    title: "Gentle Kids Face Wash",
    description:
      "A creamy face wash for after-school faces: lifts sunscreen, paint and jam without drying.",
    price: 11,
    image_count: 2,
  },
  {
    handle: "newborn-essentials-gift-set",
    title: "Newborn Essentials Gift Set",
    description:
      "Baby wash, lotion, nourishing balm and a muslin cloth in a keepsake box. The perfect baby-shower gift.",
    price: 42,
    image_count: 3,
    tax_note: US_TAX_NOTE_FREE_SHIPPING,
  },
  {
    handle: "rainbow-bath-fizzies",
    title: "Rainbow Bath Fizzies",
    description:
      "Six colourful fizzing drops that turn bath water pastel. Made with food-grade colours that never stain.",
    price: 9,
    image_count: 2,
  },
  {
    handle: "kids-hand-sanitizer-spray",
    title: "Kids Hand Sanitizer Spray",
    description: "A moisturising alcohol-based spray with aloe, in a pocket size for school bags.",
    price: 6,
    image_count: 2,
  },
];

const UK_ENTRIES: readonly Entry[] = [
  {
    handle: "calendula-nappy-balm",
    title: "Calendula Nappy Balm",
    description:
      "A soothing barrier balm with calendula and zinc for every nappy change. Made in Devon.",
    price: 9.5,
    image_count: 3,
  },
  {
    handle: "kids-sun-cream-spf50",
    title: "Kids Sun Cream SPF 50",
    description:
      "High-protection mineral sun cream for holidays and school trips. Water-resistant and fragrance-free.",
    price: 14,
    image_count: 3,
  },
  {
    handle: "colloidal-oatmeal-bath-milk",
    title: "Colloidal Oatmeal Bath Milk",
    description:
      "A milky bath soak with colloidal oatmeal that leaves dry, itchy skin calm and soft.",
    price: 11,
    image_count: 2,
  },
  {
    handle: "baby-top-to-toe-wash",
    title: "Baby Top-to-Toe Wash",
    description:
      "A gentle all-over wash for hair and body, suitable from birth. Free from sulphates and parabens.",
    price: 8.5,
    image_count: 2,
  },
  {
    handle: "sensitive-cheek-balm",
    title: "Sensitive Cheek Balm",
    description:
      "A rich balm for dribble rash and chapped cheeks, with organic shea butter and chamomile.",
    price: 7.5,
    image_count: 2,
  },
];

function imagePaths(handle: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `/images/${handle}-${i + 1}.svg`);
}

function toProducts(
  entries: readonly Entry[],
  domain: ShopDomain,
  currency: Currency,
  defaultTaxNote: string,
): Product[] {
  return entries.map((entry) => ({
    handle: entry.handle,
    title: entry.title,
    description: entry.description,
    price: entry.price,
    currency,
    domain,
    images: imagePaths(entry.handle, entry.image_count),
    tax_note: entry.tax_note ?? defaultTaxNote,
  }));
}

/** Every product of both shops: the US ones first, in the order the home page lists them. */
export const CATALOG: readonly Product[] = Object.freeze([
  ...toProducts(US_ENTRIES, US_DOMAIN, "USD", US_TAX_NOTE),
  ...toProducts(UK_ENTRIES, UK_DOMAIN, "GBP", UK_TAX_NOTE),
]);

/** The products one domain sells, in catalog order. */
export function productsForDomain(domain: ShopDomain): Product[] {
  return CATALOG.filter((product) => product.domain === domain);
}

/** The product with this handle if the domain sells it. */
export function findProduct(domain: ShopDomain, handle: string): Product | undefined {
  return CATALOG.find((product) => product.domain === domain && product.handle === handle);
}

/** The product with this handle on either domain (images are served on both hosts). */
export function findProductAnyDomain(handle: string): Product | undefined {
  return CATALOG.find((product) => product.handle === handle);
}
