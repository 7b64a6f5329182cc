// Every area of the API on the console's one client (lib/api.ts), for the screens: they are lazy chunks, so the
// contracts of products, collection, shops, categories and the host's areas load with the first screen that needs
// them, not with the login route.
import { createApi } from "@shared/api/index.ts";
import { apiClient } from "./api.ts";

export const api = createApi(apiClient);
