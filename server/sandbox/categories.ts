// One category tree per site, built from CATEGORY_SEEDS and the seed: ids, minimum prices, picture limits, fees and
// leaf attributes are pure functions of (seed, site, domain), so every sandbox with one seed serves the same trees.
// Leaves carry attribute kits shaped like the real API's (tags, value_type, values, allowed_units).
import { CATEGORY_SEEDS } from "./category-seeds.ts";
import { between, hash32, pick, sequence, unit } from "./random.ts";
import { SITE_IDS, SITES, type Language, type ListingTypeId, type SiteId } from "./sites.ts";

type Names = Record<Language, string>;

type SeedNode = { key: string; names: Names; kit: string | null; keywords: string[]; children: SeedNode[] };

type AttributeTag =
  | "required"
  | "catalog_required"
  | "conditional_required"
  | "allow_variations"
  | "variation_attribute"
  | "hidden"
  | "read_only"
  | "multivalued"
  | "defines_picture";

type ValueType = "string" | "number" | "number_unit" | "list" | "boolean";

type AttributeValue = { id: string; name: string };

export type Attribute = {
  id: string;
  name: string;
  tags: Partial<Record<AttributeTag, true>>;
  hierarchy: "PARENT_PK" | "CHILD_PK" | "FAMILY" | "ITEM";
  relevance: 1 | 2;
  value_type: ValueType;
  value_max_length: number;
  values?: AttributeValue[];
  allowed_units?: AttributeValue[];
  default_unit?: string;
  attribute_group_id: "MAIN" | "OTHERS";
  attribute_group_name: string;
};

export type Category = {
  id: string;
  site: SiteId;
  key: string;
  name: string;
  level: number;
  parentId: string | null;
  children: Category[];
  path: { id: string; name: string }[];
  leaf: boolean;
  /** Lower-cased, accent-free words of every language's name and the extra keywords, for domain discovery. */
  words: Set<string>;
  /** The leaf's own name words (a stronger match than a keyword). */
  nameWords: Set<string>;
  domainId: string;
  minimumPrice: number;
  maxTitleLength: number;
  maxPictures: number;
  /** Sale fee percentage per listing type. */
  feePercent: Record<ListingTypeId, number>;
  attributes: Attribute[];
  totalItems: number;
};

export type SiteTree = {
  site: SiteId;
  roots: Category[];
  byId: Map<string, Category>;
  /** Leaves by domain key: a global item's category maps to the same domain on each site. */
  byKey: Map<string, Category>;
  all: Category[];
};

export type CategoryTrees = Record<SiteId, SiteTree>;

// ---------------------------------------------------------------------------------------------------------------
// The seed text.

function parseSeeds(text: string): SeedNode[] {
  const roots: SeedNode[] = [];
  const stack: { depth: number; node: SeedNode }[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const depth = (line.length - line.trimStart().length) / 2;
    const fields = line.trim().split(" | ");
    const [key, es, pt, en] = fields;
    let kit: string | null = null;
    let keywords: string[] = [];
    for (const extra of fields.slice(4)) {
      if (extra.startsWith("kit:")) kit = extra.slice(4);
      else if (extra.startsWith("kw:")) keywords = extra.slice(3).split(" ");
    }
    const node: SeedNode = { key, names: { es, pt, en }, kit, keywords, children: [] };
    while (stack.length && stack[stack.length - 1].depth >= depth) stack.pop();
    if (stack.length) stack[stack.length - 1].node.children.push(node);
    else roots.push(node);
    stack.push({ depth, node });
  }
  return roots;
}

// ---------------------------------------------------------------------------------------------------------------
// Attributes: names and values in three languages, grouped in kits by the kind of product.

type Text3 = [es: string, pt: string, en: string];
type ValueSeed = Text3 | string;

type AttributeSeed = {
  names: Text3;
  type: ValueType;
  values?: ValueSeed[];
  /** Fixed value ids (the real API's ids for yes/no and item condition); others are hashed from the English name. */
  ids?: string[];
  units?: string[];
  hierarchy?: Attribute["hierarchy"];
};

const yesNo: AttributeSeed = {
  names: ["", "", ""],
  type: "boolean",
  values: [
    ["Sí", "Sim", "Yes"],
    ["No", "Não", "No"],
  ],
  ids: ["242085", "242084"],
};
const generic: Text3 = ["Genérica", "Genérica", "Generic"];

const ATTRIBUTES: Record<string, AttributeSeed> = {
  BRAND: { names: ["Marca", "Marca", "Brand"], type: "string", hierarchy: "PARENT_PK" },
  MODEL: { names: ["Modelo", "Modelo", "Model"], type: "string", hierarchy: "PARENT_PK" },
  LINE: { names: ["Línea", "Linha", "Line"], type: "string", hierarchy: "FAMILY" },
  GTIN: { names: ["Código universal de producto", "Código universal de produto", "Universal product code"], type: "string" },
  EMPTY_GTIN_REASON: {
    names: ["Motivo de GTIN vacío", "Motivo do GTIN vazio", "Empty GTIN reason"],
    type: "list",
    // identificadores-de-productos.md "Razones de no enviar GTIN": the documented values and their ids.
    values: [
      ["Artesanal", "Artesanal", "Handmade"],
      ["Kit", "Kit", "Kit"],
      ["No registrado", "Não registrado", "Not registered"],
      ["Otro", "Outro", "Other"],
    ],
    ids: ["17055158", "17055159", "17055160", "17055161"],
  },
  SELLER_SKU: { names: ["SKU", "SKU", "SKU"], type: "string" },
  ITEM_CONDITION: {
    names: ["Condición del ítem", "Condição do item", "Item condition"],
    type: "list",
    values: [
      ["Nuevo", "Novo", "New"],
      ["Usado", "Usado", "Used"],
      ["Reacondicionado", "Recondicionado", "Refurbished"],
    ],
    ids: ["2230284", "2230581", "2230582"],
  },
  IS_HIGHLIGHT_BRAND: { ...yesNo, names: ["Es marca destacada", "É marca destacada", "Is highlight brand"] },
  COLOR: {
    names: ["Color", "Cor", "Color"],
    type: "list",
    hierarchy: "CHILD_PK",
    values: [
      ["Negro", "Preto", "Black"],
      ["Blanco", "Branco", "White"],
      ["Rojo", "Vermelho", "Red"],
      ["Azul", "Azul", "Blue"],
      ["Verde", "Verde", "Green"],
      ["Gris", "Cinza", "Gray"],
      ["Rosa", "Rosa", "Pink"],
      ["Amarillo", "Amarelo", "Yellow"],
    ],
  },
  IS_WIRELESS: { ...yesNo, names: ["Es inalámbrico", "É sem fio", "Is wireless"] },
  CONNECTIVITY: { names: ["Conectividad", "Conectividade", "Connectivity"], type: "list", values: ["Bluetooth", "Wi-Fi", "USB", "NFC"] },
  INTERNAL_MEMORY: { names: ["Memoria interna", "Memória interna", "Internal memory"], type: "number_unit", units: ["GB", "TB"] },
  RAM_MEMORY: { names: ["Memoria RAM", "Memória RAM", "RAM memory"], type: "number_unit", units: ["GB"] },
  COMPATIBLE_MODELS: { names: ["Modelos compatibles", "Modelos compatíveis", "Compatible models"], type: "string" },
  MATERIAL: {
    names: ["Material", "Material", "Material"],
    type: "list",
    values: [
      ["Plástico", "Plástico", "Plastic"],
      ["Metal", "Metal", "Metal"],
      ["Silicona", "Silicone", "Silicone"],
      ["Algodón", "Algodão", "Cotton"],
      ["Poliéster", "Poliéster", "Polyester"],
      ["Cuero", "Couro", "Leather"],
      ["Madera", "Madeira", "Wood"],
      ["Vidrio", "Vidro", "Glass"],
      ["Acero inoxidable", "Aço inoxidável", "Stainless steel"],
    ],
  },
  VOLTAGE: { names: ["Voltaje", "Voltagem", "Voltage"], type: "number_unit", units: ["V"] },
  POWER: { names: ["Potencia", "Potência", "Power"], type: "number_unit", units: ["W", "kW"] },
  GENDER: {
    names: ["Género", "Gênero", "Gender"],
    type: "list",
    values: [
      ["Hombre", "Masculino", "Male"],
      ["Mujer", "Feminino", "Female"],
      ["Niños", "Meninos", "Boys"],
      ["Niñas", "Meninas", "Girls"],
      ["Sin género", "Sem gênero", "Gender neutral"],
    ],
  },
  SIZE: { names: ["Talla", "Tamanho", "Size"], type: "list", hierarchy: "CHILD_PK", values: ["XS", "S", "M", "L", "XL", "XXL"] },
  SHOE_SIZE: {
    names: ["Talla", "Tamanho", "Size"],
    type: "list",
    hierarchy: "CHILD_PK",
    values: ["35", "36", "37", "38", "39", "40", "41", "42", "43", "44"],
  },
  // The size chart an item of a fashion domain names (charts.ts), and per variation (or for a plain item) its row.
  SIZE_GRID_ID: { names: ["Guía de talles", "Tabela de medidas", "Size grid"], type: "string" },
  SIZE_GRID_ROW_ID: { names: ["Fila de la guía de talles", "Linha da tabela de medidas", "Size grid row"], type: "string" },
  AGE_GROUP: {
    names: ["Edad", "Idade", "Age group"],
    type: "list",
    values: [
      ["Adultos", "Adultos", "Adults"],
      ["Niños", "Crianças", "Kids"],
      ["Bebés", "Bebês", "Babies"],
    ],
  },
  WIDTH: { names: ["Ancho", "Largura", "Width"], type: "number_unit", units: ["cm", "m", "mm", "in"] },
  HEIGHT: { names: ["Altura", "Altura", "Height"], type: "number_unit", units: ["cm", "m", "mm", "in"] },
  UNITS_PER_PACK: { names: ["Unidades por paquete", "Unidades por kit", "Units per pack"], type: "number" },
  NET_VOLUME: { names: ["Volumen neto", "Volume líquido", "Net volume"], type: "number_unit", units: ["mL", "L", "oz"] },
  SKIN_TYPE: {
    names: ["Tipo de piel", "Tipo de pele", "Skin type"],
    type: "list",
    values: [
      ["Todo tipo de piel", "Todos os tipos de pele", "All skin types"],
      ["Grasa", "Oleosa", "Oily"],
      ["Seca", "Seca", "Dry"],
      ["Mixta", "Mista", "Combination"],
      ["Sensible", "Sensível", "Sensitive"],
    ],
  },
  MIN_RECOMMENDED_AGE: {
    names: ["Edad mínima recomendada", "Idade mínima recomendada", "Minimum recommended age"],
    type: "number_unit",
    units: ["months", "years"],
  },
  CHARACTER: { names: ["Personaje", "Personagem", "Character"], type: "string" },
  WEIGHT: { names: ["Peso", "Peso", "Weight"], type: "number_unit", units: ["g", "kg", "lb"] },
  IS_CORDLESS: { ...yesNo, names: ["Es a batería", "É a bateria", "Is cordless"] },
  PART_NUMBER: { names: ["Número de pieza", "Número de peça", "Part number"], type: "string" },
  VEHICLE_TYPE: {
    names: ["Tipo de vehículo", "Tipo de veículo", "Vehicle type"],
    type: "list",
    values: [
      ["Auto", "Carro", "Car"],
      ["Camioneta", "Caminhonete", "Pickup"],
      ["Moto", "Moto", "Motorcycle"],
      ["Camión", "Caminhão", "Truck"],
    ],
  },
  PET_TYPE: {
    names: ["Tipo de mascota", "Tipo de animal", "Pet type"],
    type: "list",
    values: [
      ["Perro", "Cachorro", "Dog"],
      ["Gato", "Gato", "Cat"],
      ["Pez", "Peixe", "Fish"],
      ["Ave", "Pássaro", "Bird"],
    ],
  },
  PACKAGE_LENGTH: { names: ["Largo del paquete", "Comprimento da embalagem", "Package length"], type: "number_unit", units: ["cm", "in"] },
  PACKAGE_WIDTH: { names: ["Ancho del paquete", "Largura da embalagem", "Package width"], type: "number_unit", units: ["cm", "in"] },
  PACKAGE_HEIGHT: { names: ["Alto del paquete", "Altura da embalagem", "Package height"], type: "number_unit", units: ["cm", "in"] },
  PACKAGE_WEIGHT: { names: ["Peso del paquete", "Peso da embalagem", "Package weight"], type: "number_unit", units: ["g", "kg", "lb"] },
};

const unitNames: Record<string, Text3> = {
  months: ["meses", "meses", "months"],
  years: ["años", "anos", "years"],
};

type KitEntry = [id: string, tags?: AttributeTag[]];

const req: AttributeTag[] = ["required"];
const variant: AttributeTag[] = ["allow_variations", "defines_picture"];

const KITS: Record<string, { brands: ValueSeed[]; attributes: KitEntry[] }> = {
  electronics: {
    brands: ["Xiaomi", "Samsung", "Sony", "JBL", "Baseus", "Anker", "Lenovo", generic],
    attributes: [["MODEL", req], ["LINE"], ["COLOR"], ["IS_WIRELESS"], ["CONNECTIVITY", ["multivalued"]]],
  },
  phone: {
    brands: ["Apple", "Samsung", "Xiaomi", "Motorola", "Huawei", "OPPO", "Realme"],
    attributes: [["MODEL", req], ["LINE"], ["COLOR", variant], ["INTERNAL_MEMORY", req], ["RAM_MEMORY"]],
  },
  accessory: {
    brands: ["Baseus", "Ugreen", "Spigen", "Anker", generic],
    attributes: [["MODEL"], ["COLOR", variant], ["COMPATIBLE_MODELS", ["multivalued"]], ["MATERIAL"]],
  },
  appliance: {
    brands: ["Oster", "Philips", "Midea", "Xiaomi", "Black+Decker", generic],
    attributes: [["MODEL", req], ["VOLTAGE", req], ["POWER"], ["COLOR"]],
  },
  fashion: {
    brands: ["Shein", "Zara", "Nike", "Adidas", "Levi's", generic],
    attributes: [["GENDER", req], ["SIZE", ["required", "allow_variations"]], ["COLOR", variant], ["MATERIAL"], ["AGE_GROUP"]],
  },
  shoes: {
    brands: ["Nike", "Adidas", "Puma", "Skechers", "Vans", generic],
    attributes: [["MODEL"], ["GENDER", req], ["SHOE_SIZE", ["required", "allow_variations"]], ["COLOR", variant]],
  },
  home: {
    brands: ["Ikea", "Tramontina", "Xiaomi", generic],
    attributes: [["MODEL"], ["COLOR", variant], ["MATERIAL"], ["WIDTH"], ["HEIGHT"], ["UNITS_PER_PACK"]],
  },
  beauty: {
    brands: ["L'Oréal", "Maybelline", "Nivea", "The Ordinary", generic],
    attributes: [["LINE"], ["NET_VOLUME"], ["SKIN_TYPE", ["multivalued"]], ["COLOR", variant]],
  },
  toys: {
    brands: ["Lego", "Mattel", "Hasbro", generic],
    attributes: [["MODEL"], ["MIN_RECOMMENDED_AGE", req], ["CHARACTER"], ["COLOR", variant]],
  },
  sports: {
    brands: ["Nike", "Adidas", "Decathlon", generic],
    attributes: [["MODEL"], ["COLOR", variant], ["WEIGHT"], ["MATERIAL"]],
  },
  tools: {
    brands: ["Bosch", "Makita", "DeWalt", "Truper", generic],
    attributes: [["MODEL", req], ["VOLTAGE"], ["POWER"], ["IS_CORDLESS"]],
  },
  auto: {
    brands: ["Bosch", "Philips", generic],
    attributes: [["PART_NUMBER", req], ["MODEL"], ["VEHICLE_TYPE", ["multivalued"]], ["COLOR"]],
  },
  pets: {
    brands: ["Kong", "Xiaomi", generic],
    attributes: [["PET_TYPE", req], ["COLOR", variant], ["MATERIAL"]],
  },
  baby: {
    brands: ["Philips Avent", "Chicco", generic],
    attributes: [["MODEL"], ["COLOR", variant], ["MIN_RECOMMENDED_AGE"]],
  },
  office: {
    brands: ["Pelikan", "Faber-Castell", "Bic", generic],
    attributes: [["MODEL"], ["COLOR", variant], ["UNITS_PER_PACK"]],
  },
  jewelry: {
    brands: ["Pandora", "Casio", "Swarovski", generic],
    attributes: [["GENDER"], ["MATERIAL", req], ["COLOR", variant]],
  },
};

const langIndex: Record<Language, number> = { es: 0, pt: 1, en: 2 };
const groupNames: Record<Language, [string, string]> = {
  es: ["Principales", "Otros"],
  pt: ["Principais", "Outros"],
  en: ["Main", "Others"],
};

const text = (v: ValueSeed, lang: Language) => (typeof v === "string" ? v : v[langIndex[lang]]);
const english = (v: ValueSeed) => (typeof v === "string" ? v : v[2]);

/**
 * Value ids the documentation gives (publica-productos.md GENDER; atributos.md BRAND Samsung in MLA-CELLPHONES): the
 * sandbox answers these, so a real id a seller's integration holds is accepted.
 */
const DOCUMENTED_VALUE_IDS: Record<string, string> = {
  "BRAND:Samsung": "206",
  "GENDER:Female": "339665",
  "GENDER:Male": "339666",
  "GENDER:Boys": "339667",
  "GENDER:Girls": "339668",
  "GENDER:Gender neutral": "110461",
};

/** Value ids shared by every site, as the real API's are. */
function valueId(attributeId: string, v: ValueSeed): string {
  const documented = DOCUMENTED_VALUE_IDS[`${attributeId}:${english(v)}`];
  if (documented) return documented;
  return String(1_000_000 + (hash32(`${attributeId}:${english(v)}`) % 8_999_999));
}

function buildAttribute(id: string, tags: AttributeTag[], lang: Language, brands?: ValueSeed[]): Attribute {
  const seed = ATTRIBUTES[id];
  const realId = id === "SHOE_SIZE" ? "SIZE" : id;
  const seedValues = id === "BRAND" ? brands : seed.values;
  const attr: Attribute = {
    id: realId,
    name: seed.names[langIndex[lang]],
    tags: Object.fromEntries(tags.map((t) => [t, true])),
    hierarchy: seed.hierarchy ?? "ITEM",
    relevance: tags.includes("required") || tags.includes("allow_variations") ? 1 : 2,
    value_type: seed.type,
    value_max_length: 255,
    attribute_group_id: tags.includes("required") ? "MAIN" : "OTHERS",
    attribute_group_name: groupNames[lang][tags.includes("required") ? 0 : 1],
  };
  if (seedValues) attr.values = seedValues.map((v, i) => ({ id: seed.ids?.[i] ?? valueId(realId, v), name: text(v, lang) }));
  if (seed.units) {
    attr.allowed_units = seed.units.map((u) => ({ id: u, name: unitNames[u] ? unitNames[u][langIndex[lang]] : u }));
    attr.default_unit = seed.units[0];
  }
  return attr;
}

/** The branches whose leaves need a size chart on a marketplace site: clothing and footwear (not bags or accessories). */
const SIZE_GRID_BRANCHES = new Set(["WOMEN_CLOTHING", "MEN_CLOTHING", "BABY_CLOTHING", "SHOES"]);

function leafAttributes(kitName: string, site: SiteId, sizeGrid: boolean): Attribute[] {
  const lang = SITES[site].language;
  const kit = KITS[kitName] ?? KITS.home;
  const entries: KitEntry[] = [["BRAND", ["required", "catalog_required"]], ...kit.attributes];
  entries.push(["GTIN", ["conditional_required", "multivalued", "variation_attribute"]]);
  entries.push(["EMPTY_GTIN_REASON", ["conditional_required"]]);
  entries.push(["SELLER_SKU", ["variation_attribute"]]);
  // Clothing and shoes on a marketplace site ask for the seller's size chart, as Mercado Libre's fashion domains do:
  // the chart on the item, a row on each variation (on the item when it has none).
  if (sizeGrid && site !== "CBT") entries.push(["SIZE_GRID_ID", req], ["SIZE_GRID_ROW_ID", ["variation_attribute"]]);
  if (site === "CBT") {
    // Global selling: condition and package are required (MERCADO-LIBRE.md, package rules).
    entries.push(["ITEM_CONDITION", req]);
    for (const p of ["PACKAGE_LENGTH", "PACKAGE_WIDTH", "PACKAGE_HEIGHT", "PACKAGE_WEIGHT"]) entries.push([p, req]);
  } else {
    entries.push(["ITEM_CONDITION", ["hidden"]]);
  }
  entries.push(["IS_HIGHLIGHT_BRAND", ["hidden", "read_only"]]);
  return entries.map(([id, tags = []]) => buildAttribute(id, tags, lang, kit.brands));
}

// ---------------------------------------------------------------------------------------------------------------
// Words, for domain discovery.

const stopWords = new Set(
  "de del la las el los y e o para por con com sin sem a al en em do da dos das and for the with of to in".split(" "),
);

/** Lower-case, accent-free words, with a light plural strip so "fundas" finds "funda". */
function words(input: string): string[] {
  return input
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9+]+/)
    .filter((w) => w && !stopWords.has(w))
    .map(stem);
}

function stem(w: string): string {
  if (w.length > 4 && w.endsWith("es") && !w.endsWith("ses")) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s")) return w.slice(0, -1);
  return w;
}

// ---------------------------------------------------------------------------------------------------------------
// The trees.

function buildTree(seed: string, site: SiteId, seeds: SeedNode[]): SiteTree {
  const info = SITES[site];
  const next = sequence(`${seed}:${site}:category-ids`);
  const used = new Set<string>();
  const newId = (level: number) => {
    for (;;) {
      const n = level === 1 ? 1000 + Math.floor(next() * 9000) : 1000 + Math.floor(next() * 499_000);
      const id = `${site}${n}`;
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  };
  const tree: SiteTree = { site, roots: [], byId: new Map(), byKey: new Map(), all: [] };

  const visit = (node: SeedNode, parent: Category | null, inheritedKit: string, rootKey: string, inGrid = false): Category => {
    const level = parent ? parent.level + 1 : 1;
    const kit = node.kit ?? inheritedKit;
    const sizeGrid = inGrid || SIZE_GRID_BRANCHES.has(node.key);
    const id = newId(level);
    const name = node.names[info.language];
    const leaf = node.children.length === 0;
    const at = (label: string) => [seed, site, node.key, label] as const;
    const classic = between(10, 16, seed, site, rootKey, "fee");
    const category: Category = {
      id,
      site,
      key: node.key,
      name,
      level,
      parentId: parent?.id ?? null,
      children: [],
      path: [...(parent?.path ?? []), { id, name }],
      leaf,
      words: new Set([...words(`${node.names.es} ${node.names.pt} ${node.names.en}`), ...node.keywords.flatMap(words)]),
      nameWords: new Set(words(name)),
      domainId: `${site}-${node.key}`,
      minimumPrice: pick(info.minimumPrices, ...at("minimum-price")),
      maxTitleLength: unit(...at("title")) < 0.1 ? 120 : 60,
      maxPictures: pick([10, 12, 12, 12], ...at("pictures")),
      feePercent: { gold_special: classic, gold_pro: classic + between(4, 6, seed, site, rootKey, "premium"), free: 0 },
      attributes: leaf ? leafAttributes(kit, site, sizeGrid) : [],
      totalItems: 0,
    };
    tree.byId.set(id, category);
    tree.all.push(category);
    if (leaf) tree.byKey.set(node.key, category);
    for (const child of node.children) category.children.push(visit(child, category, kit, rootKey, sizeGrid));
    category.totalItems = leaf ? between(20, 90_000, ...at("items")) : category.children.reduce((sum, c) => sum + c.totalItems, 0);
    return category;
  };
  for (const root of seeds) tree.roots.push(visit(root, null, root.kit ?? "home", root.key));
  return tree;
}

const cache = new Map<string, CategoryTrees>();

/** The five trees for a seed; built once per process and shared (they are never modified). */
export function categoryTrees(seed: string): CategoryTrees {
  let trees = cache.get(seed);
  if (!trees) {
    const seeds = parseSeeds(CATEGORY_SEEDS);
    trees = Object.fromEntries(SITE_IDS.map((site) => [site, buildTree(seed, site, seeds)])) as CategoryTrees;
    cache.set(seed, trees);
  }
  return trees;
}

// ---------------------------------------------------------------------------------------------------------------
// Answers in the real API's shapes.

const verticals: Record<string, string> = {
  FASHION: "FASHION",
  CELLPHONES: "ELECTRONICS",
  COMPUTING: "ELECTRONICS",
  ELECTRONICS: "ELECTRONICS",
};

export function categoryJson(c: Category, tree: SiteTree) {
  const info = SITES[c.site];
  const variations = c.attributes.some((a) => a.tags.allow_variations);
  const rootKey = tree.byId.get(c.path[0].id)?.key ?? c.key;
  return {
    id: c.id,
    name: c.name,
    picture: null,
    permalink: null,
    total_items_in_this_category: c.totalItems,
    path_from_root: c.path,
    children_categories: c.children.map((x) => ({ id: x.id, name: x.name, total_items_in_this_category: x.totalItems })),
    attribute_types: variations ? "variations" : "attributes",
    settings: {
      adult_content: false,
      buying_allowed: true,
      buying_modes: ["buy_it_now"],
      catalog_domain: c.leaf ? c.domainId : null,
      coverage_areas: "not_allowed",
      currencies: [info.currency],
      fragile: false,
      immediate_payment: "required",
      item_conditions: ["not_specified", "used", "new"],
      items_reviews_allowed: false,
      listing_allowed: c.leaf,
      max_description_length: 50000,
      max_pictures_per_item: c.maxPictures,
      max_pictures_per_item_var: Math.min(c.maxPictures, 10),
      max_sub_title_length: 70,
      max_title_length: c.maxTitleLength,
      max_variations_allowed: 100,
      maximum_price: null,
      maximum_price_currency: info.currency,
      minimum_price: c.minimumPrice,
      minimum_price_currency: info.currency,
      mirror_category: null,
      mirror_master_category: null,
      mirror_slave_categories: [],
      price: "required",
      reservation_allowed: "not_allowed",
      restrictions: [],
      rounded_address: false,
      seller_contact: "not_allowed",
      shipping_options: ["custom"],
      shipping_profile: "optional",
      show_contact_information: false,
      simple_shipping: "optional",
      stock: "required",
      sub_vertical: null,
      subscribable: false,
      tags: [],
      vertical: verticals[rootKey] ?? "CONSUMER_GOODS",
      vip_subdomain: info.language === "pt" ? "produto" : "articulo",
      buyer_protection_programs: ["delivered", "undelivered"],
      status: "enabled",
    },
    channels_settings: [],
    meta_categ_id: null,
    attributable: false,
    date_created: "2018-04-25T08:12:56.000Z",
  };
}

/** The whole tree keyed by category id, as /sites/{SITE}/categories/all answers it. */
export function treeDump(tree: SiteTree): Record<string, ReturnType<typeof categoryJson>> {
  return Object.fromEntries(tree.all.map((c) => [c.id, categoryJson(c, tree)]));
}

export type Prediction = { domain_id: string; domain_name: string; category_id: string; category_name: string; attributes: unknown[] };

/**
 * The category predictor: leaves ranked by how many of the query's words their names (stronger), keywords and
 * ancestors hold; the attributes are the list values the query names (a brand, a colour).
 */
export function predict(tree: SiteTree, query: string, limit: number): Prediction[] {
  const q = [...new Set(words(query))];
  if (!q.length) return [];
  const scored: { c: Category; score: number }[] = [];
  for (const c of tree.all) {
    if (!c.leaf) continue;
    let score = 0;
    for (const w of q) {
      if (c.nameWords.has(w)) score += 3;
      else if (c.words.has(w)) score += 2;
      else if (c.path.some((p) => p.id !== c.id && tree.byId.get(p.id)!.words.has(w))) score += 1;
    }
    if (score > 0) scored.push({ c, score });
  }
  scored.sort((a, b) => b.score - a.score || a.c.level - b.c.level);
  const qText = ` ${q.join(" ")} `;
  return scored.slice(0, limit).map(({ c }) => ({
    domain_id: c.domainId,
    domain_name: c.name,
    category_id: c.id,
    category_name: c.name,
    attributes: c.attributes
      .filter((a) => a.values && (a.value_type === "list" || a.id === "BRAND") && !a.tags.hidden)
      .flatMap((a) => {
        const v = a.values!.find((x) => x.name.length > 1 && qText.includes(` ${words(x.name).join(" ")} `));
        return v ? [{ id: a.id, name: a.name, value_id: v.id, value_name: v.name }] : [];
      }),
  }));
}
