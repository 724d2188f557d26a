// Exposure-only configs (issue #16): the service and the storefront script tell them apart by the
// one prefix in constants.ts.
import { describe, expect, it } from "vitest";
import { EXPOSURE_CONFIG_PREFIX, isExposureConfig } from "../src/constants.js";

describe("isExposureConfig", () => {
  it("is true for a config_id with the prefix, false for anything else", () => {
    expect(EXPOSURE_CONFIG_PREFIX).toBe("cf_exposure_");
    expect(isExposureConfig({ config_id: "cf_exposure_exp_price" })).toBe(true);
    expect(isExposureConfig({ config_id: "cfg_price" })).toBe(false);
    // The prefix must start the id, in this case.
    expect(isExposureConfig({ config_id: "x_cf_exposure_exp" })).toBe(false);
    expect(isExposureConfig({ config_id: "CF_EXPOSURE_exp" })).toBe(false);
    expect(isExposureConfig({ config_id: 5 })).toBe(false);
    expect(isExposureConfig({})).toBe(false);
    expect(isExposureConfig(null)).toBe(false);
    expect(isExposureConfig(undefined)).toBe(false);
  });
});
