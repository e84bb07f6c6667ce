/** Physical constants in SI units (CODATA 2018; c and μ0 as used by the 2019 SI). */
export const SPEED_OF_LIGHT_M_PER_S = 299_792_458;
/** Vacuum permeability μ0 in H/m. */
export const MU0 = 1.256_637_062_12e-6;
/** Vacuum permittivity ε0 = 1/(μ0 c²) in F/m. */
export const EPS0 = 1 / (MU0 * SPEED_OF_LIGHT_M_PER_S * SPEED_OF_LIGHT_M_PER_S);
/** Impedance of free space η0 = μ0 c in ohms. */
export const ETA0 = MU0 * SPEED_OF_LIGHT_M_PER_S;
