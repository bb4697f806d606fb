// The panel models by controller name (config.panel.kind); each is built as
// new Model(mcu, clock, pins, {onUpdate, onViolation}) and offers
// landscape(), summary(), updates and violations.
import { SSD1680 } from './ssd1680.mjs';

export const PANELS = { ssd1680: SSD1680 };
