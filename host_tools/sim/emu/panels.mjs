// The panel models by controller name (config.panel.kind). Each is built as
// new Model(mcu, clock, pins, {onUpdate({kind, t, until}), onViolation({t, msg})})
// and offers landscape() (296 x 128 MONO_HLSB, 1 = black), summary(),
// updates and violations.
import { SSD1680 } from './ssd1680.mjs';
import { UC8151 } from './uc8151.mjs';

export const PANELS = { ssd1680: SSD1680, uc8151: UC8151 };
