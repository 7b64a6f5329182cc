// The panel's later parts, one chunk loaded after the product's editable core is on screen (product.tsx): the form's
// rules and save body, the category (tree-select, 推荐类目, required attributes), the publish flow and the profit
// preview. One module on purpose: everything only these parts need (zod, the contracts, the price rules) then lands in
// this chunk instead of the panel's first one.
export { problemsOf, saveBodyOf } from "../../lib/panel-form.ts";
export { CategorySection } from "./category.tsx";
export { SitePrices } from "./prices.tsx";
export { PublishSection } from "./publish.tsx";
