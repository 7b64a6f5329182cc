// AuthBack's answer: a small page that takes the seller back to the console's shop list with the result in the URL
// (or, when the console opened the authorization in a window of its own, to that window by postMessage, then closes).
import { randomBytes } from "node:crypto";
import type { FastifyReply } from "fastify";

export type AuthOutcome = {
  ok: boolean;
  /** What the page and the console show. */
  message: string;
  /** failed: forged, expired, used, denied, exchange, limit, other-tenant, site, owner, error. */
  reason?: string;
  groupId?: string;
  added?: number;
  updated?: number;
};

export const authFailure = (reason: string, message: string): AuthOutcome => ({ ok: false, reason, message });

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const scriptJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

/** The console's shop list with the outcome in its query. */
function resultUrl(publicUrl: string, o: AuthOutcome): string {
  const q = new URLSearchParams({ auth: o.ok ? "success" : "failed" });
  if (o.reason) q.set("reason", o.reason);
  if (o.groupId) q.set("groupId", o.groupId);
  if (o.added !== undefined) q.set("added", String(o.added));
  if (o.updated !== undefined) q.set("updated", String(o.updated));
  q.set("message", o.message);
  return `${publicUrl}/#/shops/list?${q}`;
}

export async function sendResultPage(reply: FastifyReply, publicUrl: string, o: AuthOutcome) {
  const url = resultUrl(publicUrl, o);
  const origin = new URL(publicUrl).origin;
  const nonce = randomBytes(16).toString("base64");
  const data = { type: "meli-auth", ok: o.ok, reason: o.reason ?? null, message: o.message, groupId: o.groupId ?? null, url };
  const title = o.ok ? "店铺授权成功" : "店铺授权失败";
  const html = `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="3;url=${escapeHtml(url)}">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;background:#f5f5f5;margin:0}main{max-width:480px;margin:80px auto;background:#fff;border-radius:8px;padding:28px 32px;box-shadow:0 1px 3px rgba(0,0,0,.12)}h1{font-size:20px;margin:0 0 12px;color:${o.ok ? "#1a7f37" : "#c62828"}}p{line-height:1.6}</style>
</head>
<body><main>
<h1 id="result" data-ok="${o.ok}" data-reason="${escapeHtml(o.reason ?? "")}">${title}</h1>
<p id="message">${escapeHtml(o.message)}</p>
<p>正在返回店铺列表…… <a id="back" href="${escapeHtml(url)}">立即返回</a></p>
</main>
<script nonce="${nonce}">(function(){var r=${scriptJson(data)};try{if(window.opener&&window.opener!==window){window.opener.postMessage(r,${scriptJson(origin)});window.close();}}catch(e){}location.replace(r.url);})();</script>
</body>
</html>`;
  return (
    reply
      .code(200)
      .header("cache-control", "no-store")
      // The page's own address carries the code and state: never pass it on.
      .header("referrer-policy", "no-referrer")
      .header(
        "content-security-policy",
        `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'`,
      )
      .type("text/html; charset=utf-8")
      .send(html)
  );
}
