// SPDX-License-Identifier: GPL-2.0
/*
 * x86 memory operands: which instructions access memory, how wide, in which
 * direction and how the effective address is formed, for the instruction
 * forms compilers emit.  Forms it does not know are reported as accessing
 * memory in an unknown direction and size, never guessed.
 */
#include <string.h>
#include <linux/kernel.h>
#include "insn-access.h"
#include "../../arch/x86/include/asm/insn.h"
#include "../../arch/x86/include/uapi/asm/perf_regs.h"

/* perf register ids by x86 register number */
static const s8 x86_gpr[16] = {
	PERF_REG_X86_AX, PERF_REG_X86_CX, PERF_REG_X86_DX, PERF_REG_X86_BX,
	PERF_REG_X86_SP, PERF_REG_X86_BP, PERF_REG_X86_SI, PERF_REG_X86_DI,
	PERF_REG_X86_R8, PERF_REG_X86_R9, PERF_REG_X86_R10, PERF_REG_X86_R11,
	PERF_REG_X86_R12, PERF_REG_X86_R13, PERF_REG_X86_R14, PERF_REG_X86_R15,
};

#define GPR(n)		(1ULL << x86_gpr[n])
#define RAX		GPR(0)
#define RDX		GPR(2)
#define RSP		GPR(4)
#define UNKNOWN_REGS	(~0ULL)

/* SIMD prefix ids as insn_last_prefix_id() returns them (also VEX.pp) */
#define PFX_66		1
#define PFX_F3		2
#define PFX_F2		3

struct x86_insn {
	struct insn	insn;
	int		map;		/* 0: one byte, 1: 0f, 2: 0f 38, 3: 0f 3a */
	u8		opc;
	int		mod, reg, rm;	/* ModRM, reg and rm with REX/VEX extension */
	bool		rex_x, rex_b;
	int		pfx;		/* SIMD prefix */
	int		vlen;		/* vector length for VEX/EVEX/SSE forms */
	bool		vex, evex, w;
	bool		lock, rep;
	u16		seg;		/* INSN_ACCESS_F_SEG_* */
};

/* What one instruction form does: filled by the classifiers below. */
struct x86_form {
	u8	op;
	u16	size;
	u16	flags;
	u64	written;
	u8	result;
};

static void x86_insn__prefixes(struct x86_insn *x)
{
	struct insn *insn = &x->insn;
	unsigned int i;
	insn_byte_t p;

	for_each_insn_prefix(insn, i, p) {
		if (p == 0xf0)
			x->lock = true;
		else if (p == 0xf2 || p == 0xf3)
			x->rep = true;
		else if (p == 0x64)
			x->seg = INSN_ACCESS_F_SEG_FS;
		else if (p == 0x65)
			x->seg = INSN_ACCESS_F_SEG_GS;
	}
	x->pfx = insn_last_prefix_id(insn);
	x->vex = insn_is_avx(insn);
	x->evex = insn_is_evex(insn);
	x->w = x->vex ? insn_vex_w_bit(insn) : X86_REX_W(insn->rex_prefix.bytes[0]);
	if (x->evex)
		x->vlen = 16 << ((insn->vex_prefix.bytes[3] >> 5) & 3);
	else if (x->vex)
		x->vlen = X86_VEX_L(insn->vex_prefix.bytes[insn->vex_prefix.nbytes - 1]) ? 32 : 16;
	else
		x->vlen = 16;
}

static void x86_insn__opcode(struct x86_insn *x)
{
	struct insn *insn = &x->insn;

	if (x->vex) {
		x->map = insn_vex_m_bits(insn);
		x->opc = insn->opcode.bytes[0];
	} else if (insn->opcode.bytes[0] != 0x0f) {
		x->map = 0;
		x->opc = insn->opcode.bytes[0];
	} else if (insn->opcode.bytes[1] == 0x38 || insn->opcode.bytes[1] == 0x3a) {
		x->map = insn->opcode.bytes[1] == 0x38 ? 2 : 3;
		x->opc = insn->opcode.bytes[2];
	} else {
		x->map = 1;
		x->opc = insn->opcode.bytes[1];
	}
}

static void x86_insn__modrm(struct x86_insn *x)
{
	struct insn *insn = &x->insn;
	bool rex_r = false;

	if (insn->x86_64 && x->vex) {
		u8 b1 = insn->vex_prefix.bytes[1];

		rex_r = !(b1 & 0x80);
		if (insn->vex_prefix.nbytes > 2) {
			x->rex_x = !(b1 & 0x40);
			x->rex_b = !(b1 & 0x20);
		}
	} else if (insn->rex_prefix.nbytes) {
		u8 rex = insn->rex_prefix.bytes[0];

		rex_r = X86_REX_R(rex);
		x->rex_x = X86_REX_X(rex);
		x->rex_b = X86_REX_B(rex);
	}
	if (!insn->modrm.nbytes) {
		x->mod = -1;
		return;
	}
	x->mod = X86_MODRM_MOD(insn->modrm.bytes[0]);
	x->reg = X86_MODRM_REG(insn->modrm.bytes[0]) | (rex_r ? 8 : 0);
	x->rm = X86_MODRM_RM(insn->modrm.bytes[0]) | (x->rex_b ? 8 : 0);
}

/* The address part of a ModRM memory operand. */
static void x86_insn__address(struct x86_insn *x, struct insn_mem_operand *op)
{
	struct insn *insn = &x->insn;
	int base = x->rm, index = -1;

	op->disp = insn->displacement.value;
	op->scale = 1;
	if ((x->rm & 7) == 4) {
		u8 sib = insn->sib.bytes[0];

		base = X86_SIB_BASE(sib) | (x->rex_b ? 8 : 0);
		index = X86_SIB_INDEX(sib) | (x->rex_x ? 8 : 0);
		op->scale = 1 << X86_SIB_SCALE(sib);
		if (index == 4)
			index = -1;
		if (x->mod == 0 && (base & 7) == 5)
			base = -1;
	} else if (x->mod == 0 && (x->rm & 7) == 5) {
		base = insn->x86_64 ? -2 : -1;
	}
	op->base = base >= 0 ? x86_gpr[base] : base;
	op->index = index >= 0 ? x86_gpr[index] : INSN_ACCESS_REG_NONE;
	op->flags |= x->seg;
	/* rsp and rbp: stack slots, unless rbp is a general register */
	if (base == 4 || base == 5)
		op->flags |= INSN_ACCESS_F_FRAME;
}

/*
 * The register @r of a form of @byte size: without REX, byte
 * registers 4-7 are ah, ch, dh and bh.
 */
static u64 x86_insn__gpr(struct x86_insn *x, int r, bool byte)
{
	if (byte && !x->insn.rex_prefix.nbytes && r >= 4 && r < 8)
		return GPR(r - 4);
	return GPR(r);
}

/* The register a ModRM.reg destination of @size bytes writes */
static u64 dst_reg(struct x86_insn *x, u16 size)
{
	return x86_insn__gpr(x, x->reg, size == 1);
}

static void form(struct x86_form *f, u8 op, u16 size, u64 written)
{
	f->op = op;
	f->size = size;
	f->written = written;
}

/* ALU ops 00-3f: add, or, adc, sbb, and, sub, xor, cmp in four forms each. */
static void x86_form__alu(struct x86_insn *x, struct x86_form *f)
{
	bool cmp = (x->opc >> 3) == 7;
	u16 size = (x->opc & 1) ? x->insn.opnd_bytes : 1;

	if (x->opc & 2)		/* reg <- reg op mem */
		form(f, INSN_ACCESS_OP_LOAD, size, cmp ? 0 : dst_reg(x, size));
	else			/* mem <- mem op reg */
		form(f, cmp ? INSN_ACCESS_OP_LOAD : INSN_ACCESS_OP_RMW, size, 0);
}

static void x86_form__grp3(struct x86_insn *x, struct x86_form *f, u16 size)
{
	switch (x->reg & 7) {
	case 0: case 1:		/* test */
		form(f, INSN_ACCESS_OP_LOAD, size, 0);
		break;
	case 2: case 3:		/* not, neg */
		form(f, INSN_ACCESS_OP_RMW, size, 0);
		break;
	default:		/* mul, imul, div, idiv */
		form(f, INSN_ACCESS_OP_LOAD, size, size == 1 ? RAX : RAX | RDX);
		break;
	}
}

static void x86_form__grp5(struct x86_insn *x, struct x86_form *f)
{
	u16 ptr = x->insn.x86_64 ? 8 : x->insn.opnd_bytes;

	switch (x->reg & 7) {
	case 0: case 1:		/* inc, dec */
		form(f, INSN_ACCESS_OP_RMW, x->insn.opnd_bytes, 0);
		break;
	case 2:			/* call *mem: loads the function pointer */
		form(f, INSN_ACCESS_OP_LOAD, ptr, RSP);
		break;
	case 4:			/* jmp *mem */
		form(f, INSN_ACCESS_OP_LOAD, ptr, 0);
		break;
	case 6:			/* push mem */
		form(f, INSN_ACCESS_OP_LOAD, ptr, RSP);
		break;
	default:		/* far call/jmp */
		form(f, INSN_ACCESS_OP_UNKNOWN, 0, UNKNOWN_REGS);
		break;
	}
}

static void x86_form__map0(struct x86_insn *x, struct x86_form *f)
{
	u16 opnd = x->insn.opnd_bytes;
	u16 size = (x->opc & 1) ? opnd : 1;
	u8 o = x->opc;

	if (o < 0x40 && (o & 7) < 4) {
		x86_form__alu(x, f);
		return;
	}
	switch (o) {
	case 0x63:	/* movsxd */
		form(f, INSN_ACCESS_OP_LOAD, x->insn.x86_64 ? 4 : 2, GPR(x->reg));
		break;
	case 0x69: case 0x6b:	/* imul r, mem, imm */
		form(f, INSN_ACCESS_OP_LOAD, opnd, GPR(x->reg));
		break;
	case 0x80: case 0x81: case 0x83:
		size = o == 0x80 ? 1 : opnd;
		form(f, (x->reg & 7) == 7 ? INSN_ACCESS_OP_LOAD : INSN_ACCESS_OP_RMW, size, 0);
		break;
	case 0x84: case 0x85:	/* test */
		form(f, INSN_ACCESS_OP_LOAD, size, 0);
		break;
	case 0x86: case 0x87:	/* xchg: always locked */
		form(f, INSN_ACCESS_OP_RMW, size, dst_reg(x, size));
		f->flags |= INSN_ACCESS_F_LOCK;
		break;
	case 0x88: case 0x89:
		form(f, INSN_ACCESS_OP_STORE, size, 0);
		break;
	case 0x8a: case 0x8b:
		form(f, INSN_ACCESS_OP_LOAD, size, dst_reg(x, size));
		break;
	case 0x8c:
		form(f, INSN_ACCESS_OP_STORE, 2, 0);
		break;
	case 0x8d:		/* lea: computes the address, no access */
		f->result = INSN_ACCESS__NO_MEM;
		f->written = GPR(x->reg);
		break;
	case 0x8e:		/* mov to a segment register */
		form(f, INSN_ACCESS_OP_LOAD, 2, UNKNOWN_REGS);
		break;
	case 0x8f:		/* pop mem */
		form(f, INSN_ACCESS_OP_STORE, x->insn.x86_64 ? 8 : opnd, RSP);
		break;
	case 0xc0: case 0xc1: case 0xd0: case 0xd1: case 0xd2: case 0xd3:
		form(f, INSN_ACCESS_OP_RMW, (o == 0xc0 || o == 0xd0 || o == 0xd2) ? 1 : opnd, 0);
		break;
	case 0xc6: case 0xc7:
		form(f, INSN_ACCESS_OP_STORE, size, 0);
		break;
	case 0xf6: case 0xf7:
		x86_form__grp3(x, f, size);
		break;
	case 0xfe:
		form(f, INSN_ACCESS_OP_RMW, 1, 0);
		break;
	case 0xff:
		x86_form__grp5(x, f);
		break;
	default:		/* x87, les/lds, ... */
		form(f, INSN_ACCESS_OP_UNKNOWN, 0, UNKNOWN_REGS);
		break;
	}
}

/* Size of a SIMD memory operand; F3/F2 forms of @scalar ops are ss/sd. */
static u16 simd_size(struct x86_insn *x, bool scalar, bool mmx)
{
	if (scalar && x->pfx == PFX_F3)
		return 4;
	if (scalar && x->pfx == PFX_F2)
		return 8;
	if (mmx && !x->vex && !x->pfx)
		return 8;
	return x->vlen;
}

static void x86_form__map1_simd(struct x86_insn *x, struct x86_form *f)
{
	u8 o = x->opc;
	bool scalar = (o >= 0x10 && o <= 0x11) || (o >= 0x51 && o <= 0x5f) || o == 0xc2;
	bool mmx = (o >= 0x60 && o <= 0x7f) || o >= 0xd0;
	u16 size = simd_size(x, scalar, mmx);

	switch (o) {
	case 0x11: case 0x29: case 0x2b:	/* movups/ss/sd, movaps, movntps */
		form(f, INSN_ACCESS_OP_STORE, size, 0);
		break;
	case 0x12: case 0x16:	/* movlps/movhps, movddup, movs[lh]dup */
		if (x->pfx == PFX_F3)
			form(f, INSN_ACCESS_OP_LOAD, x->vlen, 0);
		else
			form(f, INSN_ACCESS_OP_LOAD, x->pfx == PFX_F2 && x->vlen == 32 ? 32 : 8, 0);
		break;
	case 0x13: case 0x17:
		form(f, INSN_ACCESS_OP_STORE, 8, 0);
		break;
	case 0x2a:	/* cvtsi2ss/sd, cvtpi2ps */
		form(f, INSN_ACCESS_OP_LOAD, x->pfx >= PFX_F3 ? x->insn.opnd_bytes : 8, 0);
		break;
	case 0x2c: case 0x2d:	/* cvt(t)ss2si/sd2si write a GPR */
		if (x->pfx >= PFX_F3)
			form(f, INSN_ACCESS_OP_LOAD, x->pfx == PFX_F3 ? 4 : 8, GPR(x->reg));
		else
			form(f, INSN_ACCESS_OP_LOAD, x->pfx == PFX_66 ? 16 : 8, 0);
		break;
	case 0x2e: case 0x2f:	/* (u)comiss/sd */
		form(f, INSN_ACCESS_OP_LOAD, x->pfx == PFX_66 ? 8 : 4, 0);
		break;
	case 0x6e:		/* movd/movq to xmm/mm */
		form(f, INSN_ACCESS_OP_LOAD, x->w ? 8 : 4, 0);
		break;
	case 0x7e:		/* movq xmm, m64 (F3) or movd/movq to memory */
		if (x->pfx == PFX_F3)
			form(f, INSN_ACCESS_OP_LOAD, 8, 0);
		else
			form(f, INSN_ACCESS_OP_STORE, x->w ? 8 : 4, 0);
		break;
	case 0x7f: case 0xe7:	/* movdq[au], movq mm; movntdq/movntq */
		form(f, INSN_ACCESS_OP_STORE, size, 0);
		break;
	case 0x78: case 0x79:	/* vmread (store), vmwrite (load) without prefix */
		if (!x->vex && !x->pfx)
			form(f, o == 0x78 ? INSN_ACCESS_OP_STORE : INSN_ACCESS_OP_LOAD,
			     x->insn.x86_64 ? 8 : 4, o == 0x78 ? 0 : UNKNOWN_REGS);
		else
			form(f, INSN_ACCESS_OP_LOAD, size, 0);
		break;
	case 0xc3:		/* movnti */
		form(f, INSN_ACCESS_OP_STORE, x->insn.opnd_bytes, 0);
		break;
	case 0xc4:		/* pinsrw */
		form(f, INSN_ACCESS_OP_LOAD, 2, 0);
		break;
	case 0xd6:		/* movq m64, xmm */
		form(f, INSN_ACCESS_OP_STORE, 8, 0);
		break;
	default:
		form(f, INSN_ACCESS_OP_LOAD, size, 0);
		break;
	}
}

static void x86_form__map1(struct x86_insn *x, struct x86_form *f)
{
	u16 opnd = x->insn.opnd_bytes;
	u8 o = x->opc;

	if ((o >= 0x10 && o <= 0x17) || (o >= 0x28 && o <= 0x2f) ||
	    (o >= 0x50 && o <= 0x7f) || o == 0xc2 || (o >= 0xc3 && o <= 0xc6) || o >= 0xd0) {
		x86_form__map1_simd(x, f);
		return;
	}
	switch (o) {
	case 0x0d:		/* prefetchw */
		form(f, INSN_ACCESS_OP_PREFETCH, 1, 0);
		break;
	case 0x18:		/* prefetch*, then hint nops */
		form(f, INSN_ACCESS_OP_PREFETCH, 1, 0);
		if ((x->reg & 7) > 3)
			f->result = INSN_ACCESS__NO_MEM;
		break;
	case 0x19 ... 0x1f:	/* hint nops, endbr */
		f->result = INSN_ACCESS__NO_MEM;
		break;
	case 0x40 ... 0x4f:	/* cmovcc */
		form(f, INSN_ACCESS_OP_LOAD, opnd, GPR(x->reg));
		break;
	case 0x90 ... 0x9f:	/* setcc */
		form(f, INSN_ACCESS_OP_STORE, 1, 0);
		break;
	case 0xa3: case 0xab: case 0xb3: case 0xbb:	/* bt, bts, btr, btc reg */
		form(f, o == 0xa3 ? INSN_ACCESS_OP_LOAD : INSN_ACCESS_OP_RMW, opnd, 0);
		f->flags |= INSN_ACCESS_F_BITOFF;
		break;
	case 0xa4: case 0xa5: case 0xac: case 0xad:	/* shld, shrd */
		form(f, INSN_ACCESS_OP_RMW, opnd, 0);
		break;
	case 0xaf: case 0xb8: case 0xbc: case 0xbd:	/* imul, popcnt, bsf, bsr */
		form(f, INSN_ACCESS_OP_LOAD, opnd, GPR(x->reg));
		break;
	case 0xb0: case 0xb1:	/* cmpxchg */
		form(f, INSN_ACCESS_OP_RMW, o == 0xb0 ? 1 : opnd, RAX);
		break;
	case 0xb6: case 0xbe:	/* movzx, movsx from a byte */
		form(f, INSN_ACCESS_OP_LOAD, 1, GPR(x->reg));
		break;
	case 0xb7: case 0xbf:	/* ... from a word */
		form(f, INSN_ACCESS_OP_LOAD, 2, GPR(x->reg));
		break;
	case 0xba:		/* bt, bts, btr, btc imm */
		form(f, (x->reg & 7) == 4 ? INSN_ACCESS_OP_LOAD : INSN_ACCESS_OP_RMW, opnd, 0);
		break;
	case 0xc0: case 0xc1:	/* xadd */
		form(f, INSN_ACCESS_OP_RMW, o == 0xc0 ? 1 : opnd, dst_reg(x, o == 0xc0 ? 1 : opnd));
		break;
	case 0xc7:		/* cmpxchg8b/16b */
		if ((x->reg & 7) == 1)
			form(f, INSN_ACCESS_OP_RMW, x->w ? 16 : 8, RAX | RDX);
		else
			form(f, INSN_ACCESS_OP_UNKNOWN, 0, UNKNOWN_REGS);
		break;
	default:		/* system instructions, xsave, clflush, ... */
		form(f, INSN_ACCESS_OP_UNKNOWN, 0, UNKNOWN_REGS);
		break;
	}
}

static void x86_form__map2(struct x86_insn *x, struct x86_form *f)
{
	u8 o = x->opc;

	if ((x->vex && !x->evex && o >= 0x90 && o <= 0x93) ||
	    (x->evex && ((o >= 0x90 && o <= 0x93) || (o >= 0xa0 && o <= 0xa3) ||
			 o == 0xc6 || o == 0xc7))) {
		f->result = INSN_ACCESS__VSIB;
		return;
	}
	switch (o) {
	case 0x18: case 0x58:	/* vbroadcastss, vpbroadcastd */
		form(f, INSN_ACCESS_OP_LOAD, 4, 0);
		break;
	case 0x19: case 0x59:	/* vbroadcastsd, vpbroadcastq */
		form(f, INSN_ACCESS_OP_LOAD, 8, 0);
		break;
	case 0x1a: case 0x5a:	/* vbroadcastf128/i128 */
		form(f, INSN_ACCESS_OP_LOAD, 16, 0);
		break;
	case 0x78: case 0x79:	/* vpbroadcastb/w */
		form(f, INSN_ACCESS_OP_LOAD, o == 0x78 ? 1 : 2, 0);
		break;
	case 0x20: case 0x23: case 0x25: case 0x30: case 0x33: case 0x35: /* pmov[zs]x *2 */
		form(f, INSN_ACCESS_OP_LOAD, x->vlen / 2, 0);
		break;
	case 0x21: case 0x24: case 0x31: case 0x34:	/* pmov[zs]x *4 */
		form(f, INSN_ACCESS_OP_LOAD, x->vlen / 4, 0);
		break;
	case 0x22: case 0x32:	/* pmov[zs]xbq */
		form(f, INSN_ACCESS_OP_LOAD, x->vlen / 8, 0);
		break;
	case 0x2e: case 0x2f: case 0x8e:	/* vmaskmov / vpmaskmov stores */
		form(f, INSN_ACCESS_OP_STORE, x->vlen, 0);
		break;
	case 0xf0: case 0xf1:	/* movbe, crc32 */
		if (x->vex)
			form(f, INSN_ACCESS_OP_LOAD, x->w ? 8 : 4, UNKNOWN_REGS);
		else if (x->pfx == PFX_F2)
			form(f, INSN_ACCESS_OP_LOAD, o == 0xf0 ? 1 : x->insn.opnd_bytes,
			     GPR(x->reg));
		else if (o == 0xf0)
			form(f, INSN_ACCESS_OP_LOAD, x->insn.opnd_bytes, GPR(x->reg));
		else
			form(f, INSN_ACCESS_OP_STORE, x->insn.opnd_bytes, 0);
		break;
	case 0xf2 ... 0xf7:	/* BMI, adcx/adox */
		form(f, INSN_ACCESS_OP_LOAD, x->vex ? (x->w ? 8 : 4) : x->insn.opnd_bytes,
		     x->vex ? UNKNOWN_REGS : GPR(x->reg));
		break;
	default:
		form(f, INSN_ACCESS_OP_LOAD, x->vlen, 0);
		break;
	}
}

static void x86_form__map3(struct x86_insn *x, struct x86_form *f)
{
	switch (x->opc) {
	case 0x14: case 0x15:	/* pextrb/w */
		form(f, INSN_ACCESS_OP_STORE, x->opc == 0x14 ? 1 : 2, 0);
		break;
	case 0x16:		/* pextrd/q */
		form(f, INSN_ACCESS_OP_STORE, x->w ? 8 : 4, 0);
		break;
	case 0x17:		/* extractps */
		form(f, INSN_ACCESS_OP_STORE, 4, 0);
		break;
	case 0x19: case 0x39:	/* vextractf128/i128 */
		form(f, INSN_ACCESS_OP_STORE, 16, 0);
		break;
	case 0x1d:		/* vcvtps2ph */
		form(f, INSN_ACCESS_OP_STORE, x->vlen / 2, 0);
		break;
	case 0x18: case 0x38:	/* vinsertf128/i128 */
		form(f, INSN_ACCESS_OP_LOAD, 16, 0);
		break;
	case 0x20:		/* pinsrb */
		form(f, INSN_ACCESS_OP_LOAD, 1, 0);
		break;
	case 0x21:		/* insertps */
		form(f, INSN_ACCESS_OP_LOAD, 4, 0);
		break;
	case 0x22:		/* pinsrd/q */
		form(f, INSN_ACCESS_OP_LOAD, x->w ? 8 : 4, 0);
		break;
	case 0x0a: case 0x0b:	/* roundss/sd */
		form(f, INSN_ACCESS_OP_LOAD, x->opc == 0x0a ? 4 : 8, 0);
		break;
	case 0xf0:		/* rorx */
		form(f, INSN_ACCESS_OP_LOAD, x->w ? 8 : 4, GPR(x->reg));
		break;
	default:
		form(f, INSN_ACCESS_OP_LOAD, x->vlen, 0);
		break;
	}
}

/* An instruction with a ModRM memory operand. */
static void x86_insn__modrm_mem(struct x86_insn *x, struct insn_access_insn *ia)
{
	struct insn_mem_operand *op = &ia->ops[0];
	struct x86_form f = { .result = INSN_ACCESS__OK, };

	if (x->evex && x->mod == 1) {
		/* disp8 * N compression depends on the tuple type: not handled */
		ia->result = INSN_ACCESS__DECODE;
		return;
	}
	switch (x->map) {
	case 0:
		x86_form__map0(x, &f);
		break;
	case 1:
		x86_form__map1(x, &f);
		break;
	case 2:
		x86_form__map2(x, &f);
		break;
	case 3:
		x86_form__map3(x, &f);
		break;
	default:
		f.result = INSN_ACCESS__DECODE;
		break;
	}
	ia->result = f.result;
	ia->written_regs = f.written;
	/* a pointer computed (&a[i], &s->f): what it points to, for its users */
	if (x->map == 0 && x->opc == 0x8d && x->insn.opnd_bytes == 8) {
		x86_insn__address(x, &ia->lea);
		ia->lea_dst = x86_gpr[x->reg];
	}
	if (f.result != INSN_ACCESS__OK)
		return;

	x86_insn__address(x, op);
	op->op = f.op;
	op->size = f.size;
	op->flags |= f.flags;
	if (x->lock)
		op->flags |= INSN_ACCESS_F_LOCK;
	/* EVEX.aaa: an opmask register picks the elements (memset's tail) */
	if (x->evex && (x->insn.vex_prefix.bytes[3] & 7))
		op->flags |= INSN_ACCESS_F_MASKED;
	ia->nr_ops = 1;
}

static void x86_insn__string_op(struct x86_insn *x, struct insn_access_insn *ia, int reg,
				u8 op)
{
	struct insn_mem_operand *m = &ia->ops[ia->nr_ops++];
	u16 size = (x->opc & 1) ? x->insn.opnd_bytes : 1;

	m->base = x86_gpr[reg];
	m->index = INSN_ACCESS_REG_NONE;
	m->scale = 1;
	m->op = op;
	m->size = size;
	m->flags = INSN_ACCESS_F_STRING | (x->rep ? INSN_ACCESS_F_REP : 0);
	/* rsi may be segment-overridden; rdi always uses es: (flat) */
	if (reg == 6)
		m->flags |= x->seg;
}

static void x86_insn__moffs(struct x86_insn *x, struct insn_access_insn *ia)
{
	struct insn_mem_operand *m = &ia->ops[0];
	struct insn *insn = &x->insn;
	u64 addr = (u32)insn->moffset1.value;

	if (insn->moffset2.nbytes)
		addr |= (u64)(u32)insn->moffset2.value << 32;
	m->disp = addr;
	m->base = INSN_ACCESS_REG_NONE;
	m->index = INSN_ACCESS_REG_NONE;
	m->scale = 1;
	m->op = x->opc < 0xa2 ? INSN_ACCESS_OP_LOAD : INSN_ACCESS_OP_STORE;
	m->size = (x->opc & 1) ? insn->opnd_bytes : 1;
	m->flags = INSN_ACCESS_F_ABS | x->seg;
	ia->nr_ops = 1;
	ia->written_regs = x->opc < 0xa2 ? RAX : 0;
	ia->result = INSN_ACCESS__OK;
}

static void x86_insn__branch(struct x86_insn *x, struct insn_access_insn *ia, u64 ip, u8 kind)
{
	ia->branch = kind;
	ia->target = ip + x->insn.length + (s64)x->insn.immediate.value;
}

/* The registers an instruction without a ModRM byte writes: UNKNOWN_REGS if not known */
static u64 x86_insn__other_written(struct x86_insn *x)
{
	int r = (x->opc & 7) | (x->rex_b ? 8 : 0);
	u8 o = x->opc;

	if (x->map == 1 && o >= 0xc8 && o <= 0xcf)	/* bswap */
		return GPR(r);
	if (x->map != 0)
		return UNKNOWN_REGS;
	if (o < 0x40 && (o & 7) >= 4 && (o & 7) <= 5)	/* alu al/eax, imm; cmp writes none */
		return o >= 0x38 ? 0 : RAX;
	switch (o) {
	case 0x50 ... 0x57: case 0x68: case 0x6a: case 0x9c: case 0x9d:
		return RSP;			/* push, pushf, popf */
	case 0x58 ... 0x5f:			/* pop */
		return RSP | GPR(r);
	case 0xc8: case 0xc9:			/* enter, leave */
		return RSP | GPR(5);
	case 0x90:				/* nop, or xchg %r8,%rax */
		return x->rex_b ? RAX | GPR(8) : 0;
	case 0x91 ... 0x97:			/* xchg reg,%rax */
		return RAX | GPR(r);
	case 0x98:				/* cbw, cwde, cdqe */
		return RAX;
	case 0x99:				/* cwd, cdq, cqo */
		return RDX;
	case 0xa8: case 0xa9:			/* test al/eax, imm */
	case 0xf5: case 0xf8 ... 0xfd:		/* cmc, clc, stc, cli, sti, cld, std */
		return 0;
	case 0xb0 ... 0xb7:			/* mov imm8: ah..bh without REX */
		return x86_insn__gpr(x, r, true);
	case 0xb8 ... 0xbf:			/* mov imm */
		return GPR(r);
	default:
		return UNKNOWN_REGS;
	}
}

/* Instructions without a ModRM memory operand. */
static void x86_insn__other(struct x86_insn *x, struct insn_access_insn *ia, u64 ip)
{
	u8 o = x->opc;

	ia->result = INSN_ACCESS__NO_MEM;
	ia->written_regs = x86_insn__other_written(x);
	if (x->map == 1) {
		if (o >= 0x80 && o <= 0x8f) {		/* jcc rel32 */
			x86_insn__branch(x, ia, ip, INSN_ACCESS_BR_JUMP);
			ia->cond = true;
			ia->written_regs = 0;
		} else if (o == 0x0b) {			/* ud2 */
			ia->branch = INSN_ACCESS_BR_RET;
		} else if (o == 0xa0 || o == 0xa1 || o == 0xa8 || o == 0xa9) {
			ia->result = INSN_ACCESS__STACK;	/* push/pop fs/gs */
		}
		return;
	}
	if (x->map != 0)
		return;

	switch (o) {
	case 0x50 ... 0x5f: case 0x68: case 0x6a: case 0x9c: case 0x9d:
	case 0xc8: case 0xc9:		/* push, pop, pushf, popf, enter, leave */
		ia->result = INSN_ACCESS__STACK;
		break;
	case 0xc2: case 0xc3: case 0xca: case 0xcb:	/* ret */
		ia->result = INSN_ACCESS__STACK;
		ia->branch = INSN_ACCESS_BR_RET;
		break;
	case 0xe8:			/* call rel32 */
		ia->result = INSN_ACCESS__STACK;
		x86_insn__branch(x, ia, ip, INSN_ACCESS_BR_CALL);
		break;
	case 0x70 ... 0x7f: case 0xe0 ... 0xe3: case 0xe9: case 0xeb:
		x86_insn__branch(x, ia, ip, INSN_ACCESS_BR_JUMP);
		ia->cond = o != 0xe9 && o != 0xeb;
		/* a conditional jump writes no register, but loop* counts %rcx down */
		if (ia->cond)
			ia->written_regs = o <= 0xe2 && o >= 0xe0 ? GPR(1) : 0;
		break;
	case 0xa0 ... 0xa3:
		x86_insn__moffs(x, ia);
		break;
	case 0xa4: case 0xa5:		/* movs */
		x86_insn__string_op(x, ia, 6, INSN_ACCESS_OP_LOAD);
		x86_insn__string_op(x, ia, 7, INSN_ACCESS_OP_STORE);
		break;
	case 0xa6: case 0xa7:		/* cmps */
		x86_insn__string_op(x, ia, 6, INSN_ACCESS_OP_LOAD);
		x86_insn__string_op(x, ia, 7, INSN_ACCESS_OP_LOAD);
		break;
	case 0xaa: case 0xab: case 0x6c: case 0x6d:	/* stos, ins */
		x86_insn__string_op(x, ia, 7, INSN_ACCESS_OP_STORE);
		break;
	case 0xac: case 0xad: case 0x6e: case 0x6f:	/* lods, outs */
		x86_insn__string_op(x, ia, 6, INSN_ACCESS_OP_LOAD);
		break;
	case 0xae: case 0xaf:		/* scas */
		x86_insn__string_op(x, ia, 7, INSN_ACCESS_OP_LOAD);
		break;
	case 0xd7:			/* xlat: indexed by al, not representable */
		ia->result = INSN_ACCESS__DECODE;
		break;
	default:
		break;
	}
	if (ia->nr_ops)
		ia->result = INSN_ACCESS__OK;
}

/* SSE register forms that write a general purpose register */
static bool x86_insn__simd_to_gpr(struct x86_insn *x)
{
	switch (x->opc) {
	case 0x2c: case 0x2d:	/* cvt(t)ss2si, cvt(t)sd2si */
	case 0x50: case 0xd7:	/* movmskps/pd, pmovmskb */
	case 0xc5:		/* pextrw */
		return true;
	case 0x7e:		/* movd/movq to a GPR; F3 is movq xmm, xmm */
		return x->pfx != PFX_F3;
	case 0x78:		/* vmread without a prefix */
		return !x->vex && !x->pfx;
	default:
		return false;
	}
}

/* The registers register-only forms of map 1 (0f xx) write */
static u64 x86_insn__reg_written_map1(struct x86_insn *x)
{
	u8 o = x->opc;

	if (!x->evex && ((o >= 0x10 && o <= 0x17) || (o >= 0x28 && o <= 0x2f) ||
			 (o >= 0x50 && o <= 0x7f) || (o >= 0xc2 && o <= 0xc6) || o >= 0xd0))
		return x86_insn__simd_to_gpr(x) ? UNKNOWN_REGS : 0;
	if (x->vex || x->evex)
		return UNKNOWN_REGS;
	switch (o) {
	case 0x1f:				/* nop */
		return 0;
	case 0x40 ... 0x4f:			/* cmovcc */
	case 0xaf: case 0xb6: case 0xb7: case 0xb8:	/* imul, movzx, popcnt */
	case 0xbc: case 0xbd: case 0xbe: case 0xbf:	/* bsf, bsr, movsx */
		return GPR(x->reg);
	case 0x90 ... 0x9f:			/* setcc */
		return x86_insn__gpr(x, x->rm, true);
	case 0xa3:				/* bt */
		return 0;
	case 0xa4: case 0xa5: case 0xab: case 0xac: case 0xad: case 0xb3: case 0xbb:
		return GPR(x->rm);		/* shld, shrd, bts, btr, btc */
	case 0xba:				/* bt* imm */
		return (x->reg & 7) == 4 ? 0 : GPR(x->rm);
	case 0xb0: case 0xb1:			/* cmpxchg */
		return RAX | x86_insn__gpr(x, x->rm, o == 0xb0);
	case 0xc0: case 0xc1:			/* xadd */
		return x86_insn__gpr(x, x->reg, o == 0xc0) | x86_insn__gpr(x, x->rm, o == 0xc0);
	default:
		return UNKNOWN_REGS;
	}
}

/*
 * The registers a register-only form of the common integer instructions
 * writes (mov, movzx, the ALU ops, shifts, SSE moves): UNKNOWN_REGS for
 * the others
 */
static u64 x86_insn__reg_written(struct x86_insn *x)
{
	bool byte = !(x->opc & 1);
	u8 o = x->opc;

	if (x->map == 1)
		return x86_insn__reg_written_map1(x);
	if (x->map != 0 || x->vex || x->evex)
		return UNKNOWN_REGS;
	if (o < 0x40 && (o & 7) <= 3) {
		/* add, or, adc, sbb, and, sub, xor, cmp: cmp (0x38-0x3b) writes none */
		if (o >= 0x38)
			return 0;
		return x86_insn__gpr(x, o & 2 ? x->reg : x->rm, byte);
	}
	switch (o) {
	case 0x63: case 0x69: case 0x6b:	/* movsxd, imul reg, reg, imm */
		return GPR(x->reg);
	case 0x8a: case 0x8b:
		return x86_insn__gpr(x, x->reg, byte);
	case 0x88: case 0x89:
		return x86_insn__gpr(x, x->rm, byte);
	case 0x84: case 0x85:			/* test */
		return 0;
	case 0x80: case 0x81: case 0x83:	/* alu imm: cmp writes none */
		return (x->reg & 7) == 7 ? 0 : x86_insn__gpr(x, x->rm, o == 0x80);
	case 0xc0: case 0xc1: case 0xd0: case 0xd1: case 0xd2: case 0xd3:	/* shifts */
		return x86_insn__gpr(x, x->rm, byte);
	case 0x86: case 0x87:			/* xchg reg, reg */
		return x86_insn__gpr(x, x->reg, byte) | x86_insn__gpr(x, x->rm, byte);
	case 0xc6: case 0xc7:			/* mov imm */
		return (x->reg & 7) ? UNKNOWN_REGS : x86_insn__gpr(x, x->rm, byte);
	case 0xf6: case 0xf7:			/* test, not, neg, mul, imul, div, idiv */
		if ((x->reg & 7) < 2)
			return 0;
		if ((x->reg & 7) < 4)
			return x86_insn__gpr(x, x->rm, byte);
		return byte ? RAX : RAX | RDX;
	case 0xfe: case 0xff:			/* inc, dec; calls and jumps branch */
		return (x->reg & 7) < 2 ? x86_insn__gpr(x, x->rm, byte) : UNKNOWN_REGS;
	default:
		return UNKNOWN_REGS;
	}
}

static void insn_access__addr_regs(struct insn_access_insn *ia)
{
	for (int i = 0; i < ia->nr_ops; i++) {
		if (ia->ops[i].base >= 0)
			ia->addr_regs |= 1ULL << ia->ops[i].base;
		if (ia->ops[i].index >= 0)
			ia->addr_regs |= 1ULL << ia->ops[i].index;
	}
}

int insn_access__decode_x86(struct insn_access_insn *ia, const u8 *code, size_t len,
			    u64 ip, bool is64bit)
{
	struct x86_insn x;

	memset(&x, 0, sizeof(x));
	if (insn_decode(&x.insn, code, len, is64bit ? INSN_MODE_64 : INSN_MODE_32) < 0 ||
	    !x.insn.length) {
		ia->result = INSN_ACCESS__DECODE;
		return -1;
	}
	ia->length = x.insn.length;
	ia->addr_bytes = x.insn.addr_bytes;
	ia->written_regs = UNKNOWN_REGS;
	if (insn_is_rex2(&x.insn) || x.insn.addr_bytes == 2) {
		/* APX registers and 16-bit addressing: not handled */
		ia->result = INSN_ACCESS__DECODE;
		return 0;
	}
	x86_insn__prefixes(&x);
	x86_insn__opcode(&x);
	x86_insn__modrm(&x);

	if (x.map == 0 && x.opc == 0xff && x.mod >= 0 && (x.reg & 7) >= 2 && (x.reg & 7) <= 5) {
		/* call/jmp through a register or memory */
		ia->branch = (x.reg & 7) <= 3 ? INSN_ACCESS_BR_CALL : INSN_ACCESS_BR_JUMP;
		ia->indirect = true;
	}

	if (x.mod >= 0 && x.mod != 3) {
		x86_insn__modrm_mem(&x, ia);
	} else if (x.mod == 3) {
		ia->result = INSN_ACCESS__NO_MEM;
		ia->written_regs = x86_insn__reg_written(&x);
	} else {
		x86_insn__other(&x, ia, ip);
	}

	insn_access__addr_regs(ia);
	return 0;
}
