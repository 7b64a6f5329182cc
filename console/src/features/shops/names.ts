// What the shop centre calls the server's numbers: the sites (MELI_SITES: our number, Mercado Libre's site id, the
// Chinese name) and the status of a shop account (MeliAccountStatus), with the badge tone each status shows in.
import { MeliAccountStatus } from "#shared/contract/enums.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import type { BadgeTone } from "../../lib/labels.ts";

export const SITE_NUMBERS = Object.keys(MELI_SITES).map(Number) as MeliSiteNumber[];

const isSite = (site: number): site is MeliSiteNumber => site in MELI_SITES;

/** 墨西哥, 巴西, ... (the spec's names); an unknown number says which it is. */
export const siteName = (site: number) => (isSite(site) ? MELI_SITES[site].name : `站点 ${site}`);

/** Mercado Libre's id of the site (MLM, MLB, ...), shown next to the name. */
const siteCode = (site: number) => (isSite(site) ? MELI_SITES[site].meli : "");

/** Mercado Libre's id when the name does not carry it already (跨境（CBT） does). */
export const siteCodeHint = (site: number) => (siteName(site).includes(siteCode(site)) ? "" : siteCode(site));

/** 墨西哥（MLM）, ..., 跨境（CBT）. */
export const siteLabel = (site: number) => (siteCodeHint(site) ? `${siteName(site)}（${siteCode(site)}）` : siteName(site));

export const siteOptions = SITE_NUMBERS.map((value) => ({ value, label: siteLabel(value) }));

const accountStatusLabels: Record<number, string> = {
  [MeliAccountStatus.Active]: "正常",
  [MeliAccountStatus.Disabled]: "已停用",
  [MeliAccountStatus.NeedsAuthorization]: "需重新授权",
};

export const accountStatusTones: Record<number, BadgeTone> = {
  [MeliAccountStatus.Active]: "success",
  [MeliAccountStatus.Disabled]: "secondary",
  [MeliAccountStatus.NeedsAuthorization]: "destructive",
};

export const accountStatusLabel = (status: number) => accountStatusLabels[status] ?? `状态 ${status}`;
export const accountStatusOptions = Object.values(MeliAccountStatus).map((value) => ({ value, label: accountStatusLabel(value) }));

/** The name a shop goes by: its alias when it has one, else the seller's nickname. */
export const shopTitle = (s: { alias: string | null; name: string }) => s.alias?.trim() || s.name;
