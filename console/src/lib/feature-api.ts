// The console's one `api`: every area of the API on the console's one client (lib/api.ts). Only the screens' api files
// (features/*/api/) and the queries they share in lib/ import it, all in lazy chunks, so the contracts of products,
// collection, shops, categories and the host's areas load with the first screen that needs them, not with the login
// route (which calls lib/api.ts's sessionApi).
import { createApi } from "#shared/api/index.ts";
import { apiClient } from "./api.ts";

export const api = createApi(apiClient);
