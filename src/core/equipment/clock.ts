/**
 * The time equipment rules read ("today" for overdue and calibration_due, the window of uptime and
 * tests per hour). Tests move it forward to pass a due date without touching the process clock
 * (sessions, TOTP and the audit chain keep the real time). Never set outside tests.
 */
let offsetMs = 0;

export function equipmentNow(): Date {
  return new Date(Date.now() + offsetMs);
}

/** Tests: the equipment clock reads this instant from now on (null: the real time again). */
export function setEquipmentClock(at: Date | string | null): void {
  offsetMs = at === null ? 0 : new Date(at).getTime() - Date.now();
}
