// Generates a product centre for the benchmark (issue 5): one tenant's main account and a few sub-accounts, 10 labels
// and N products, by set-based SQL (INSERT … SELECT FROM generate_series, in chunks so PGlite copes), through the
// owner connection (a superuser: outside the tenant policy) with every trigger on, so title_text, search_text and
// product_counts are what the server keeps them as.
//
// The distribution, per product (g = 1…N):
//  - owner: sub-account 1 every 10th product (g % 10 = 0, 10 %), sub-account 2 g % 20 = 1 (5 %), sub-account 3
//    g % 50 = 3 (2 %), sub-account 4 g % 100 = 5 (1 %), the main account the rest (82 %);
//  - titles: zh and es 70 %, zh only 20 %, es only 10 % (sub-account 1's always have zh, prefixed 【优选】, which is
//    the bulk find-and-replace's keyword). 3–6 words drawn from a vocabulary of ~110 words per language with a skew
//    (word i is drawn with probability ∝ its rank's share of random()²), so the first words are common — 新款 is in
//    ~35 % of zh titles, nuevo in ~30 % of es titles — and the tail is rare; a model number (6 hex digits) ends each
//    title; RARE_WORD (碳纤维) is in 0.05 % of the zh titles (~0.045 % of products); a brand (the screening's hits)
//    in 3 % of each language's titles;
//  - descriptions: HTML, 20–39 zh words and/or 20–34 es words (some hundred characters);
//  - price 1–500 skewed to cheap (1 + 499·random()²), weight 50–5000 g, size, stock; currency CNY 60 %, USD 25 %,
//    MXN 10 %, BRL 5 %; status 1 35 %, 2 30 %, 3 30 %, 4 5 %; platform type 1–9 skewed to 1688 (1 + ⌊9·random()^1.5⌋);
//    label: none 60 %, else one of 10 (4 % each); site and category on half of them;
//  - creation time: over the year before now, in insertion order with a few hours of jitter (an append-mostly table);
//  - variants: 20 % have 3–6 variants (one colour option), each with a price around the product's.
//
// Titles and descriptions are drawn from pools (20,000 titles per language, 5,000 descriptions) built by each
// statement: product g takes pool entry (g · prime) mod size and adds its own model number, so every title differs.
//
// Large seeds (PostgreSQL, ≥ 200,000 rows by default) drop the products indexes first and create them again with
// their exact definitions afterwards (faster than maintaining 12 indexes row by row), and switch the titles trigger
// off while the insert writes title_text and search_text itself (the trigger's result, checked on 1,000 rows written
// again through it); then VACUUM ANALYZE.
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../server/db/client.ts";
import { rowsOf } from "../server/db/client.ts";
import { seedSubUsers } from "./seed.ts";

export const RARE_WORD = "碳纤维";
export const COMMON_WORD_ZH = "新款";
/** In every title of sub-account 1's products: the bulk find-and-replace's keyword. */
export const PREFIX_WORD = "优选";
/** Brand words some titles carry (the screening finds them). */
export const BRAND_WORDS = ["耐克", "阿迪达斯", "迪士尼", "nike", "adidas", "disney", "hello kitty", "pokemon"];

// Ordered by how common: the first ones are drawn most.
const ZH_WORDS = [
  "新款",
  "包邮",
  "时尚",
  "女装",
  "男士",
  "夏季",
  "韩版",
  "百搭",
  "加厚",
  "纯棉",
  "手机壳",
  "运动鞋",
  "连衣裙",
  "蓝牙耳机",
  "不锈钢",
  "保温杯",
  "儿童",
  "玩具",
  "冬季",
  "T恤",
  "背包",
  "收纳盒",
  "厨房",
  "家用",
  "智能",
  "手表",
  "充电器",
  "数据线",
  "LED灯",
  "化妆刷",
  "口红",
  "眼影",
  "假发",
  "宠物",
  "猫砂",
  "狗粮",
  "户外",
  "帐篷",
  "钓鱼竿",
  "自行车",
  "汽车",
  "座垫",
  "防水",
  "便携",
  "迷你",
  "大容量",
  "复古",
  "简约",
  "北欧",
  "创意",
  "耳环",
  "项链",
  "戒指",
  "手链",
  "发夹",
  "帽子",
  "围巾",
  "手套",
  "袜子",
  "内衣",
  "睡衣",
  "牛仔裤",
  "卫衣",
  "外套",
  "羽绒服",
  "凉鞋",
  "拖鞋",
  "高跟鞋",
  "帆布鞋",
  "双肩包",
  "钱包",
  "太阳镜",
  "雨伞",
  "水杯",
  "餐具",
  "刀具",
  "锅铲",
  "砧板",
  "毛巾",
  "浴巾",
  "床单",
  "枕头",
  "窗帘",
  "地毯",
  "台灯",
  "插座",
  "鼠标",
  "键盘",
  "耳机",
  "音箱",
  "支架",
  "贴膜",
  "移动电源",
  "平板",
  "相机",
  "三脚架",
  "瑜伽垫",
  "哑铃",
  "跳绳",
  "泳衣",
  "滑板",
  "头盔",
  "护膝",
  "渔具",
  "花盆",
  "园艺",
  "工具箱",
  "螺丝刀",
  "电钻",
  "胶带",
];
const ES_WORDS = [
  "nuevo",
  "envío",
  "moda",
  "mujer",
  "hombre",
  "verano",
  "estilo",
  "coreano",
  "grueso",
  "algodón",
  "funda",
  "celular",
  "tenis",
  "vestido",
  "audífonos",
  "bluetooth",
  "acero",
  "inoxidable",
  "termo",
  "niños",
  "juguete",
  "invierno",
  "camiseta",
  "mochila",
  "organizador",
  "cocina",
  "hogar",
  "inteligente",
  "reloj",
  "cargador",
  "cable",
  "lámpara",
  "brochas",
  "maquillaje",
  "labial",
  "sombras",
  "peluca",
  "mascota",
  "arena",
  "gato",
  "perro",
  "camping",
  "tienda",
  "pesca",
  "bicicleta",
  "auto",
  "asiento",
  "impermeable",
  "portátil",
  "mini",
  "capacidad",
  "vintage",
  "minimalista",
  "nórdico",
  "creativo",
  "aretes",
  "collar",
  "anillo",
  "pulsera",
  "pinza",
  "gorra",
  "bufanda",
  "guantes",
  "calcetines",
  "pijama",
  "jeans",
  "sudadera",
  "chamarra",
  "sandalias",
  "pantuflas",
  "tacones",
  "bolso",
  "cartera",
  "lentes",
  "paraguas",
  "vaso",
  "cubiertos",
  "cuchillo",
  "espátula",
  "tabla",
  "toalla",
  "sábana",
  "almohada",
  "cortina",
  "alfombra",
  "enchufe",
  "ratón",
  "teclado",
  "bocina",
  "soporte",
  "mica",
  "batería",
  "tableta",
  "cámara",
  "trípode",
  "tapete",
  "yoga",
  "mancuernas",
  "cuerda",
  "traje",
  "baño",
  "patineta",
  "casco",
  "rodilleras",
  "maceta",
  "jardín",
  "herramientas",
  "destornillador",
  "taladro",
  "cinta",
];
const COLOURS = ["红色", "黑色", "白色", "蓝色", "粉色", "灰色"];

/** A text[] literal of constant words (ours, quoted here; never user input). */
function wordArray(words: readonly string[]): SQL {
  return sql.raw(`(ARRAY[${words.map((w) => `'${w.replace(/'/g, "''")}'`).join(", ")}]::text[])`);
}

export type ProductSeedResult = {
  tenantId: string;
  mainUserId: string;
  mainUserName: string;
  /** Sub-accounts bench1…benchN (password as given) and how many products each owns. */
  subUsers: { id: string; userName: string; products: number }[];
  labelIds: string[];
  products: number;
  ms: { users: number; insert: number; indexes: number; vacuum: number; total: number };
  rebuiltIndexes: boolean;
};

/**
 * Seeds `count` products into the tenant named `tenantName` (its main account owns most; 4 sub-accounts bench1…bench4
 * with `subPassword` are created for the rest). `log` gets a line per chunk.
 */
export async function seedProducts(
  database: Database,
  o: {
    tenantName: string;
    count: number;
    subPassword: string;
    chunk?: number;
    rebuildIndexes?: boolean;
    log?: (line: string) => void;
  },
): Promise<ProductSeedResult> {
  const log = o.log ?? (() => {});
  const chunk = o.chunk ?? 100_000;
  /** Bulk mode: indexes built after the insert, and title_text/search_text written by the insert (trigger off). */
  const rebuild = o.rebuildIndexes ?? (database.kind === "postgres" && o.count >= 200_000);
  const t0 = Date.now();
  const db = database.db;

  const subs = await seedSubUsers(database, o.tenantName, 4, o.subPassword);
  const tenantId = subs.tenantId;
  const users = rowsOf<{ id: string; userName: string; isMain: boolean }>(
    await db.execute(sql`select id, user_name as "userName", is_main_account as "isMain" from users
      where tenant_id = ${tenantId}::uuid and not is_deleted and (is_main_account or user_name in ('bench1', 'bench2', 'bench3', 'bench4'))`),
  );
  const main = users.find((u) => u.isMain);
  if (!main) throw new Error("tenant has no main account");
  const sub = (n: number) => users.find((u) => u.userName === `bench${n}`)!.id;
  const labelIds: string[] = [];
  for (let i = 1; i <= 10; i++) {
    const [r] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into product_labels (tenant_id, id, name, sort, creation_time, creator_id)
        values (${tenantId}::uuid, gen_random_uuid(), ${`标签${i}`}, ${i}, now(), ${main.id}::uuid) returning id`),
    );
    labelIds.push(r.id);
  }
  const tUsers = Date.now() - t0;

  // The indexes of products (not its primary key), to be created again after the insert.
  let indexDefs: string[] = [];
  if (rebuild) {
    indexDefs = rowsOf<{ name: string; def: string }>(
      await db.execute(sql`select i.relname as name, pg_get_indexdef(i.oid) as def from pg_index x
        join pg_class i on i.oid = x.indexrelid where x.indrelid = 'products'::regclass and not x.indisprimary`),
    ).map((r) => {
      return r.def;
    });
    const names = rowsOf<{ name: string }>(
      await db.execute(sql`select i.relname as name from pg_index x join pg_class i on i.oid = x.indexrelid
        where x.indrelid = 'products'::regclass and not x.indisprimary`),
    );
    for (const n of names) await db.execute(sql.raw(`drop index "${n.name}"`));
    log(`dropped ${names.length} indexes of products for the insert`);
    // The insert writes title_text and search_text as the trigger would (checked on a sample below).
    await db.execute(sql`alter table products disable trigger products_titles`);
  }

  const zh = wordArray(ZH_WORDS);
  const es = wordArray(ES_WORDS);
  const brands = wordArray(BRAND_WORDS);
  const colours = wordArray(COLOURS);
  const labels = sql.raw(`(ARRAY[${labelIds.map((l) => `'${l}'`).join(", ")}]::uuid[])`);
  const N = o.count;
  /** Pool sizes: distinct word sequences for titles, and for descriptions. */
  const P = Math.min(20_000, N);
  const D = Math.min(5_000, N);
  const tInsert = Date.now();
  try {
    for (let from = 1; from <= N; from += chunk) {
      const to = Math.min(N, from + chunk - 1);
      const t = Date.now();
      // Titles and descriptions come from pools built per statement (word picks are correlated subqueries, ~15 µs
      // each, too slow to run four times per product); a product takes pool entry (g · prime) mod P, plus its own
      // model number. Each random() is drawn once per row in the inner select (offset 0 keeps it from being inlined).
      await db.execute(sql`with zt as materialized (
        select i, (select string_agg(${zh}[1 + floor(power(random(), 2) * ${ZH_WORDS.length})::int], '') from generate_series(1, 3 + i % 4))
          || (case when i % 2000 = 7 then ${RARE_WORD}::text else '' end)
          || (case when i % 33 = 5 then ${brands}[1 + i % 3] else '' end) as t
        from generate_series(0, ${P - 1}::int) i
      ), et as materialized (
        select i, (select string_agg(${es}[1 + floor(power(random(), 2) * ${ES_WORDS.length})::int], ' ') from generate_series(1, 4 + i % 4))
          || (case when i % 33 = 6 then ' ' || ${brands}[4 + i % 5] else '' end) as t
        from generate_series(0, ${P - 1}::int) i
      ), zd as materialized (
        select i, '<p>' || (select string_agg(${zh}[1 + floor(random() * ${ZH_WORDS.length})::int], '') from generate_series(1, 20 + i % 20))
          || '</p><p><img src="https://img.example.com/d/' || i || '.jpg"></p>' as t
        from generate_series(0, ${D - 1}::int) i
      ), ed as materialized (
        select i, '<p>' || (select string_agg(${es}[1 + floor(random() * ${ES_WORDS.length})::int], ' ') from generate_series(1, 20 + i % 15))
          || '.</p>' as t
        from generate_series(0, ${D - 1}::int) i
      )
      insert into products (tenant_id, id, user_id, platform_type, source_url, item_id, sku, title, title_text, search_text,
        image, images, price, currency, weight, size, stock, country, description, options, variants, site, cate_id,
        label_id, status, creation_time, creator_id)
      select ${tenantId}::uuid, gen_random_uuid(), s.user_id, s.platform,
        'https://item.example.com/' || s.platform || '/' || (600000000000 + s.g) || '.html',
        (600000000000 + s.g)::text, 'SKU-' || s.g,
        jsonb_strip_nulls(jsonb_build_object('zh', tt.zh, 'es', tt.es)),
        -- What the titles trigger computes (display title: zh, else es; search text: every title by key, lower-cased).
        coalesce(tt.zh, tt.es), lower(concat_ws(E'\n', tt.es, tt.zh)),
        'https://img.example.com/p/' || s.g || '/0.jpg',
        jsonb_build_array('https://img.example.com/p/' || s.g || '/0.jpg', 'https://img.example.com/p/' || s.g || '/1.jpg',
          'https://img.example.com/p/' || s.g || '/2.jpg'),
        s.price, s.currency, s.weight,
        (10 + s.g % 40) || 'x' || (5 + s.g % 30) || 'x' || (2 + s.g % 20), floor(s.r_stock * 1000)::int, 'CN',
        (case when s.lang < 0.9 then jsonb_build_object('zh', zd.t) else '{}'::jsonb end)
          || (case when s.lang < 0.7 or s.lang >= 0.9 then jsonb_build_object('es', ed.t) else '{}'::jsonb end),
        case when s.nvar > 0 then jsonb_build_array(jsonb_build_object('name', '颜色', 'values',
          (select jsonb_agg(jsonb_build_object('id', 'c' || v, 'name', ${colours}[v])) from generate_series(1, s.nvar) v)))
          else '[]'::jsonb end,
        case when s.nvar > 0 then (select jsonb_agg(jsonb_build_object('sku', 'SKU-' || s.g || '-' || v,
            'optionValues', jsonb_build_array('c' || v), 'price', round(s.price * (0.8 + 0.1 * v), 2),
            'stock', (s.g + v) % 300)) from generate_series(1, s.nvar) v)
          else '[]'::jsonb end,
        case when s.r_site < 0.5 then 1 + floor(s.r_site * 10)::int end,
        case when s.r_site < 0.5 then 'MLM' || (1000 + s.g % 300) end,
        case when s.r_label < 0.4 then ${labels}[1 + floor(s.r_label * 25)::int] end,
        case when s.r_status < 0.35 then 1 when s.r_status < 0.65 then 2 when s.r_status < 0.95 then 3 else 4 end,
        now() - interval '365 days' + (s.g::float8 / ${N}) * interval '365 days' - s.r_time * interval '6 hours',
        s.user_id
      from (
        select g,
          case when g % 10 = 0 then ${sub(1)}::uuid when g % 20 = 1 then ${sub(2)}::uuid when g % 50 = 3 then ${sub(3)}::uuid
            when g % 100 = 5 then ${sub(4)}::uuid else ${main.id}::uuid end as user_id,
          case when g % 10 = 0 then random() * 0.9 else random() end as lang,
          1 + floor(power(random(), 1.5) * 9)::int as platform,
          round((1 + 499 * power(random(), 2))::numeric, 2) as price,
          (array['CNY', 'CNY', 'CNY', 'CNY', 'CNY', 'CNY', 'USD', 'USD', 'USD', 'MXN', 'MXN', 'BRL'])[1 + g % 12] as currency,
          round((50 + 4950 * power(random(), 3))::numeric, 2) as weight,
          random() as r_stock, random() as r_site, random() as r_label, random() as r_status, random() as r_time,
          case when random() < 0.2 then 3 + g % 4 else 0 end as nvar,
          upper(substr(md5(g::text), 1, 6)) as model
        from generate_series(${from}::int, ${to}::int) g
        offset 0
      ) s
      join zt on zt.i = (s.g::bigint * 7919) % ${P}
      join et on et.i = (s.g::bigint * 104729) % ${P}
      join zd on zd.i = (s.g::bigint * 7907) % ${D}
      join ed on ed.i = (s.g::bigint * 6197) % ${D}
      cross join lateral (select
        case when s.lang < 0.9 then
          (case when s.user_id = ${sub(1)}::uuid then '【' || ${PREFIX_WORD}::text || '】' else '' end) || zt.t || ' ' || s.model
        end as zh,
        case when s.lang < 0.7 or s.lang >= 0.9 then et.t || ' ' || s.model end as es) tt`);
      log(`products ${from}–${to}: ${Date.now() - t} ms`);
    }
  } finally {
    if (rebuild) await db.execute(sql`alter table products enable trigger products_titles`);
  }
  const msInsert = Date.now() - tInsert;
  // title_text and search_text are what the trigger makes of the titles: 1,000 rows written again through it.
  const [check] = rowsOf<{ n: number; bad: number }>(
    await db.execute(sql`with chk as (
        select id, title_text, search_text from products where tenant_id = ${tenantId}::uuid
          and id in (select id from products tablesample system (1) limit 1000)
      ), upd as (
        update products p set title = p.title from chk where p.tenant_id = ${tenantId}::uuid and p.id = chk.id
        returning p.id, p.title_text, p.search_text
      )
      select count(*)::int as n, (count(*) filter (where upd.title_text is distinct from chk.title_text
        or upd.search_text is distinct from chk.search_text))::int as bad
      from upd join chk using (id)`),
  );
  if (check.bad) throw new Error(`title_text/search_text differ from the trigger's on ${check.bad} of ${check.n} rows`);
  log(`title_text and search_text as the titles trigger writes them: ${check.n} sampled rows checked`);

  let msIndexes = 0;
  if (rebuild) {
    const t = Date.now();
    if (database.kind === "postgres") await db.execute(sql`set maintenance_work_mem = '1GB'`);
    for (const def of indexDefs) {
      const ti = Date.now();
      await db.execute(sql.raw(def));
      log(`${def.replace(/ USING .*/, "")}: ${Date.now() - ti} ms`);
    }
    if (database.kind === "postgres") await db.execute(sql`reset maintenance_work_mem`);
    msIndexes = Date.now() - t;
  }
  const tVac = Date.now();
  // A steady-state table: visibility map set (index-only scans), statistics fresh.
  await db.execute(sql`vacuum (analyze) products`);
  await db.execute(sql`analyze product_counts`);
  await db.execute(sql`analyze product_labels`);
  await db.execute(sql`analyze users`);
  const msVacuum = Date.now() - tVac;

  const counts = rowsOf<{ userId: string; n: number }>(
    await db.execute(sql`select user_id as "userId", count::int as n from product_counts where tenant_id = ${tenantId}::uuid`),
  );
  const countOf = (id: string) => Number(counts.find((c) => c.userId === id)?.n ?? 0);
  const total = counts.reduce((a, c) => a + Number(c.n), 0);
  return {
    tenantId,
    mainUserId: main.id,
    mainUserName: main.userName,
    subUsers: [1, 2, 3, 4].map((n) => ({ id: sub(n), userName: `bench${n}`, products: countOf(sub(n)) })),
    labelIds,
    products: total,
    ms: { users: tUsers, insert: msInsert, indexes: msIndexes, vacuum: msVacuum, total: Date.now() - t0 },
    rebuiltIndexes: rebuild,
  };
}
