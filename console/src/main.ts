// Until the console lands: show whether the server and its database answer.
const el = document.getElementById("health");
fetch("./health")
  .then((r) => r.json())
  .then((h: { status: string; database: string }) => {
    if (el) el.textContent = `服务状态：${h.status === "ok" ? "正常" : h.status}（数据库：${h.database}）`;
  })
  .catch(() => {
    if (el) el.textContent = "服务状态：无法连接";
  });
