// Every site adapter, in the order extract() tries them (a URL matches at most one).
import type { Adapter } from "../snapshot.ts";
import { alibaba1688 } from "./1688.ts";
import { aliexpress } from "./aliexpress.ts";
import { amazon } from "./amazon.ts";
import { jd } from "./jd.ts";
import { pinduoduo } from "./pinduoduo.ts";
import { shein } from "./shein.ts";
import { taobao } from "./taobao.ts";
import { temu } from "./temu.ts";
import { tmall } from "./tmall.ts";

export const adapters: readonly Adapter[] = [alibaba1688, taobao, tmall, aliexpress, pinduoduo, temu, shein, amazon, jd] as Adapter[];
