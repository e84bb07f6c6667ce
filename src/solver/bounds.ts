/**
 * The range of each kind of number in a simulation request: the schema's bounds
 * (schema/simulation.ts) and the checks' (checks/*.ts) come from here.
 *
 * Each range is far wider than any FDTD problem needs, and narrow enough that what the service
 * computes from the numbers — areas and volumes, cell counts, ratios of lengths to the grid
 * step, squared fields — stays far from the overflow and underflow of a double (and of the
 * float32 fields). Without them a sphere of radius 1e308 m made the estimate's surface area
 * 4π·r² infinite and its surface-cell count NaN (a 500), and a mesh-override step of 5e-324 m
 * made the grid planner loop until the process died (issue #26). With every length within
 * ±MAX_LENGTH_M and the grid step at least MIN_GRID_STEP_M, a product of three lengths over the
 * cube of a step is at most about 1e45.
 */

/** Largest magnitude of any length or coordinate, in metres: a kilometre. */
export const MAX_LENGTH_M = 1e3;

/**
 * Smallest grid step (domain.resolution), in metres: a picometre, far below the scale at which
 * a material is a continuum with a permittivity. Every other length that must be positive is
 * held to the grid step by the checks (a mesh override's step, the wavelengths through the
 * cells per wavelength).
 */
export const MIN_GRID_STEP_M = 1e-12;

/**
 * Largest ratio of domain.resolution to a mesh override's step. The graded-grid planner steps
 * through an axis in sixteenths of the local step (grid.ts planAxisNodes); a step so fine that
 * a sixteenth of it is below the precision of the coordinates never advances. The finest grid
 * in docs/validation.md refines 32 times.
 */
export const MAX_MESH_REFINEMENT = 1000;

/**
 * Range of the source amplitude, V/m. The fields are float32: at 1e30 V/m their energy
 * overflowed and the run failed as diverged; at 1e-30 V/m the phasors lost digits to
 * subnormal numbers. 1e12 V/m is beyond the breakdown field of any material.
 */
export const MIN_AMPLITUDE_V_PER_M = 1e-12;
export const MAX_AMPLITUDE_V_PER_M = 1e12;

/**
 * A point dipole's moment (A·m, or V·m for a magnetic one). Its near field one cell away is
 * about moment/(4π·ε0·ω·h³): 2e21 V/m per A·m on 1 nm cells at 500 nm, so up to 1e6 A·m keeps
 * float32 fields far from overflow on the finest grid; its far field at 10 µm, 1e18 V/m per A·m
 * at 10 µm wavelength, keeps clear of subnormal numbers down to 1e-20 A·m.
 */
export const MIN_DIPOLE_MOMENT = 1e-20;
export const MAX_DIPOLE_MOMENT = 1e6;

/**
 * Largest angular frequency or damping rate of a dispersive pole, rad/s: about 65 keV, far
 * beyond the ultraviolet poles of the library's fits (~1e16 rad/s).
 */
export const MAX_POLE_RATE_RAD_PER_S = 1e20;

/** Largest |Δε| of a Lorentz pole (the library's largest, a far-infrared pole, is 4e4). */
export const MAX_POLE_DELTA_EPS = 1e6;

/**
 * Smallest Courant factor: the lowest the materials' stability search tries
 * (dispersion/stability.ts). Smaller factors only add steps; 5e-324 made the time step 0.
 */
export const MIN_COURANT_FACTOR = 0.01;
