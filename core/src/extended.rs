//! The x87 80-bit extended-precision numbers of C's `long double` on x86-64 (`MPI_LONG_DOUBLE`,
//! `MPI_C_LONG_DOUBLE_COMPLEX`, ...), for reductions: Rust has no arithmetic type for them,
//! so the x87 unit computes, as C's own `long double` arithmetic does. Each number is the
//! first 10 of its 16 bytes; the other 6 are padding, written as zeros.

use std::cmp::Ordering;

/// One `long double`: its 16 bytes as they sit in memory.
#[derive(Clone, Copy, Debug)]
pub struct Extended(pub [u8; 16]);

/// Which x87 instruction combines two numbers.
#[derive(Clone, Copy)]
enum Arithmetic {
    Add,
    Sub,
    Mul,
}

impl Extended {
    /// The number in `bytes` (16 of them).
    pub fn read(bytes: &[u8]) -> Extended {
        Extended(bytes.try_into().expect("a long double's 16 bytes"))
    }

    /// `self op other`, computed by the x87 unit in extended precision.
    fn arithmetic(self, other: Extended, op: Arithmetic) -> Extended {
        let mut out = [0u8; 16];
        let (a, b, r) = (self.0.as_ptr(), other.0.as_ptr(), out.as_mut_ptr());
        // SAFETY: each pointer addresses 16 readable (a, b) or writable (r) bytes, of which
        // the instructions touch the first 10; the two values pushed on the x87 stack are
        // popped before the end, so the stack is empty again, as the ABI wants.
        unsafe {
            match op {
                Arithmetic::Add => std::arch::asm!(
                    "fld tbyte ptr [{a}]", "fld tbyte ptr [{b}]", "faddp st(1), st",
                    "fstp tbyte ptr [{r}]",
                    a = in(reg) a, b = in(reg) b, r = in(reg) r,
                    out("st(0)") _, out("st(1)") _, options(nostack),
                ),
                Arithmetic::Sub => std::arch::asm!(
                    "fld tbyte ptr [{a}]", "fld tbyte ptr [{b}]", "fsubp st(1), st",
                    "fstp tbyte ptr [{r}]",
                    a = in(reg) a, b = in(reg) b, r = in(reg) r,
                    out("st(0)") _, out("st(1)") _, options(nostack),
                ),
                Arithmetic::Mul => std::arch::asm!(
                    "fld tbyte ptr [{a}]", "fld tbyte ptr [{b}]", "fmulp st(1), st",
                    "fstp tbyte ptr [{r}]",
                    a = in(reg) a, b = in(reg) b, r = in(reg) r,
                    out("st(0)") _, out("st(1)") _, options(nostack),
                ),
            }
        }
        Extended(out)
    }

    /// `self + other`.
    pub fn add(self, other: Extended) -> Extended {
        self.arithmetic(other, Arithmetic::Add)
    }

    /// `self - other`.
    pub fn sub(self, other: Extended) -> Extended {
        self.arithmetic(other, Arithmetic::Sub)
    }

    /// `self * other`.
    pub fn mul(self, other: Extended) -> Extended {
        self.arithmetic(other, Arithmetic::Mul)
    }

    /// 1 (`true`) or 0 (`false`).
    pub fn from_bool(value: bool) -> Extended {
        let mut out = [0u8; 16];
        let r = out.as_mut_ptr();
        // SAFETY: `r` addresses 16 writable bytes; the value pushed is popped.
        unsafe {
            if value {
                std::arch::asm!("fld1", "fstp tbyte ptr [{r}]", r = in(reg) r, out("st(0)") _, options(nostack));
            } else {
                std::arch::asm!("fldz", "fstp tbyte ptr [{r}]", r = in(reg) r, out("st(0)") _, options(nostack));
            }
        }
        Extended(out)
    }
}

impl PartialEq for Extended {
    fn eq(&self, other: &Extended) -> bool {
        self.partial_cmp(other) == Some(Ordering::Equal)
    }
}

impl PartialOrd for Extended {
    /// The order of two numbers; `None` if either is a NaN.
    fn partial_cmp(&self, other: &Extended) -> Option<Ordering> {
        let (a, b) = (self.0.as_ptr(), other.0.as_ptr());
        let (below, equal, unordered): (u8, u8, u8);
        // SAFETY: both pointers address 16 readable bytes; the two values pushed are popped
        // (fcomip pops one, fstp the other).
        unsafe {
            std::arch::asm!(
                "fld tbyte ptr [{b}]", "fld tbyte ptr [{a}]", "fcomip st, st(1)",
                "fstp st(0)", "setb {below}", "sete {equal}", "setp {unordered}",
                a = in(reg) a, b = in(reg) b,
                below = out(reg_byte) below, equal = out(reg_byte) equal,
                unordered = out(reg_byte) unordered,
                out("st(0)") _, out("st(1)") _, options(nostack),
            );
        }
        match (unordered, below, equal) {
            (1, _, _) => None,
            (_, 1, _) => Some(Ordering::Less),
            (_, _, 1) => Some(Ordering::Equal),
            _ => Some(Ordering::Greater),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The x87 bytes of a small integer `n` (sign, exponent, explicit integer bit).
    fn of(n: i64) -> Extended {
        let mut bytes = [0u8; 16];
        if n != 0 {
            let magnitude = n.unsigned_abs();
            let shift = magnitude.leading_zeros();
            let mantissa = magnitude << shift;
            let exponent = 16383 + 63 - shift as u16;
            bytes[..8].copy_from_slice(&mantissa.to_le_bytes());
            let sign = if n < 0 { 0x8000 } else { 0 };
            bytes[8..10].copy_from_slice(&(exponent | sign).to_le_bytes());
        }
        Extended(bytes)
    }

    #[test]
    fn the_x87_unit_adds_multiplies_and_orders_long_doubles() {
        assert_eq!(of(3).add(of(4)).0, of(7).0);
        assert_eq!(of(3).sub(of(5)).0, of(-2).0);
        assert_eq!(of(-6).mul(of(7)).0, of(-42).0);
        assert_eq!(Extended::from_bool(true).0, of(1).0);
        assert_eq!(Extended::from_bool(false).0, of(0).0);
        assert!(of(-1) < of(2) && of(5) > of(2) && of(9) == of(9));
        let mut nan = of(0);
        nan.0[7] = 0xc0;
        nan.0[8] = 0xff;
        nan.0[9] = 0x7f;
        assert_eq!(nan.partial_cmp(&of(1)), None);
    }
}
