#define rand	pan_rand
#define pthread_equal(a,b)	((a)==(b))
#if defined(HAS_CODE) && defined(VERBOSE)
	#ifdef BFS_PAR
		bfs_printf("Pr: %d Tr: %d\n", II, t->forw);
	#else
		cpu_printf("Pr: %d Tr: %d\n", II, t->forw);
	#endif
#endif
	switch (t->forw) {
	default: Uerror("bad forward move");
	case 0:	/* if without executable clauses */
		continue;
	case 1: /* generic 'goto' or 'skip' */
		IfNotBlocked
		_m = 3; goto P999;
	case 2: /* generic 'else' */
		IfNotBlocked
		if (trpt->o_pm&1) continue;
		_m = 3; goto P999;

		 /* CLAIM polls_stop */
	case 3: // STATE 1 - _spin_nvr.tmp:12 - [((!(!((polls==3)))&&!((polls==3))))] (8:0:0 - 1)
		
#if defined(VERI) && !defined(NP)
#if NCLAIMS>1
		{	static int reported1 = 0;
			if (verbose && !reported1)
			{	int nn = (int) ((Pclaim *)pptr(0))->_n;
				printf("depth %ld: Claim %s (%d), state %d (line %d)\n",
					depth, procname[spin_c_typ[nn]], nn, (int) ((Pclaim *)pptr(0))->_p, src_claim[ (int) ((Pclaim *)pptr(0))->_p ]);
				reported1 = 1;
				fflush(stdout);
		}	}
#else
		{	static int reported1 = 0;
			if (verbose && !reported1)
			{	printf("depth %d: Claim, state %d (line %d)\n",
					(int) depth, (int) ((Pclaim *)pptr(0))->_p, src_claim[ (int) ((Pclaim *)pptr(0))->_p ]);
				reported1 = 1;
				fflush(stdout);
		}	}
#endif
#endif
		reached[2][1] = 1;
		if (!(( !( !((((int)now.polls)==3)))&& !((((int)now.polls)==3)))))
			continue;
		/* merge: assert(!((!(!((polls==3)))&&!((polls==3)))))(0, 2, 8) */
		reached[2][2] = 1;
		spin_assert( !(( !( !((((int)now.polls)==3)))&& !((((int)now.polls)==3)))), " !(( !( !((polls==3)))&& !((polls==3))))", II, tt, t);
		/* merge: .(goto)(0, 9, 8) */
		reached[2][9] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 4: // STATE 4 - _spin_nvr.tmp:13 - [(!(!((polls==3))))] (0:0:0 - 1)
		
#if defined(VERI) && !defined(NP)
#if NCLAIMS>1
		{	static int reported4 = 0;
			if (verbose && !reported4)
			{	int nn = (int) ((Pclaim *)pptr(0))->_n;
				printf("depth %ld: Claim %s (%d), state %d (line %d)\n",
					depth, procname[spin_c_typ[nn]], nn, (int) ((Pclaim *)pptr(0))->_p, src_claim[ (int) ((Pclaim *)pptr(0))->_p ]);
				reported4 = 1;
				fflush(stdout);
		}	}
#else
		{	static int reported4 = 0;
			if (verbose && !reported4)
			{	printf("depth %d: Claim, state %d (line %d)\n",
					(int) depth, (int) ((Pclaim *)pptr(0))->_p, src_claim[ (int) ((Pclaim *)pptr(0))->_p ]);
				reported4 = 1;
				fflush(stdout);
		}	}
#endif
#endif
		reached[2][4] = 1;
		if (!( !( !((((int)now.polls)==3)))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 5: // STATE 11 - _spin_nvr.tmp:18 - [(!((polls==3)))] (16:0:0 - 1)
		
#if defined(VERI) && !defined(NP)
#if NCLAIMS>1
		{	static int reported11 = 0;
			if (verbose && !reported11)
			{	int nn = (int) ((Pclaim *)pptr(0))->_n;
				printf("depth %ld: Claim %s (%d), state %d (line %d)\n",
					depth, procname[spin_c_typ[nn]], nn, (int) ((Pclaim *)pptr(0))->_p, src_claim[ (int) ((Pclaim *)pptr(0))->_p ]);
				reported11 = 1;
				fflush(stdout);
		}	}
#else
		{	static int reported11 = 0;
			if (verbose && !reported11)
			{	printf("depth %d: Claim, state %d (line %d)\n",
					(int) depth, (int) ((Pclaim *)pptr(0))->_p, src_claim[ (int) ((Pclaim *)pptr(0))->_p ]);
				reported11 = 1;
				fflush(stdout);
		}	}
#endif
#endif
		reached[2][11] = 1;
		if (!( !((((int)now.polls)==3))))
			continue;
		/* merge: assert(!(!((polls==3))))(0, 12, 16) */
		reached[2][12] = 1;
		spin_assert( !( !((((int)now.polls)==3))), " !( !((polls==3)))", II, tt, t);
		/* merge: .(goto)(0, 17, 16) */
		reached[2][17] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 6: // STATE 20 - _spin_nvr.tmp:23 - [-end-] (0:0:0 - 1)
		
#if defined(VERI) && !defined(NP)
#if NCLAIMS>1
		{	static int reported20 = 0;
			if (verbose && !reported20)
			{	int nn = (int) ((Pclaim *)pptr(0))->_n;
				printf("depth %ld: Claim %s (%d), state %d (line %d)\n",
					depth, procname[spin_c_typ[nn]], nn, (int) ((Pclaim *)pptr(0))->_p, src_claim[ (int) ((Pclaim *)pptr(0))->_p ]);
				reported20 = 1;
				fflush(stdout);
		}	}
#else
		{	static int reported20 = 0;
			if (verbose && !reported20)
			{	printf("depth %d: Claim, state %d (line %d)\n",
					(int) depth, (int) ((Pclaim *)pptr(0))->_p, src_claim[ (int) ((Pclaim *)pptr(0))->_p ]);
				reported20 = 1;
				fflush(stdout);
		}	}
#endif
#endif
		reached[2][20] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */

		 /* CLAIM busy_bounded */
	case 7: // STATE 1 - _spin_nvr.tmp:3 - [(!((x_Busy<=2)))] (6:0:0 - 1)
		
#if defined(VERI) && !defined(NP)
#if NCLAIMS>1
		{	static int reported1 = 0;
			if (verbose && !reported1)
			{	int nn = (int) ((Pclaim *)pptr(0))->_n;
				printf("depth %ld: Claim %s (%d), state %d (line %d)\n",
					depth, procname[spin_c_typ[nn]], nn, (int) ((Pclaim *)pptr(0))->_p, src_claim[ (int) ((Pclaim *)pptr(0))->_p ]);
				reported1 = 1;
				fflush(stdout);
		}	}
#else
		{	static int reported1 = 0;
			if (verbose && !reported1)
			{	printf("depth %d: Claim, state %d (line %d)\n",
					(int) depth, (int) ((Pclaim *)pptr(0))->_p, src_claim[ (int) ((Pclaim *)pptr(0))->_p ]);
				reported1 = 1;
				fflush(stdout);
		}	}
#endif
#endif
		reached[1][1] = 1;
		if (!( !((((int)now.x_Busy)<=2))))
			continue;
		/* merge: assert(!(!((x_Busy<=2))))(0, 2, 6) */
		reached[1][2] = 1;
		spin_assert( !( !((((int)now.x_Busy)<=2))), " !( !((x_Busy<=2)))", II, tt, t);
		/* merge: .(goto)(0, 7, 6) */
		reached[1][7] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 8: // STATE 10 - _spin_nvr.tmp:8 - [-end-] (0:0:0 - 1)
		
#if defined(VERI) && !defined(NP)
#if NCLAIMS>1
		{	static int reported10 = 0;
			if (verbose && !reported10)
			{	int nn = (int) ((Pclaim *)pptr(0))->_n;
				printf("depth %ld: Claim %s (%d), state %d (line %d)\n",
					depth, procname[spin_c_typ[nn]], nn, (int) ((Pclaim *)pptr(0))->_p, src_claim[ (int) ((Pclaim *)pptr(0))->_p ]);
				reported10 = 1;
				fflush(stdout);
		}	}
#else
		{	static int reported10 = 0;
			if (verbose && !reported10)
			{	printf("depth %d: Claim, state %d (line %d)\n",
					(int) depth, (int) ((Pclaim *)pptr(0))->_p, src_claim[ (int) ((Pclaim *)pptr(0))->_p ]);
				reported10 = 1;
				fflush(stdout);
		}	}
#endif
#endif
		reached[1][10] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */

		 /* PROC counters */
	case 9: // STATE 5 - promela/testdata/token-workers.pml:69 - [D_STEP69]
		if (!(boq == -1 && (((((int)now.x_Idle)>=1)&&(((int)now.tokens)>=1))&&(((int)now.tokens)>=1))))
			continue;

		reached[0][5] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_000_0: /* 2 */
		if (!((((((int)now.x_Idle)>=1)&&(((int)now.tokens)>=1))&&(((int)now.tokens)>=1))))
			Uerror("block in d_step seq");
S_001_0: /* 2 */
		now.x_Idle = (((int)now.x_Idle)-1);
#ifdef VAR_RANGES
		logval("x_Idle", ((int)now.x_Idle));
#endif
		;
S_002_0: /* 2 */
		now.x_Busy = (((int)now.x_Busy)+1);
#ifdef VAR_RANGES
		logval("x_Busy", ((int)now.x_Busy));
#endif
		;
S_003_0: /* 2 */
		now.tokens = (((int)now.tokens)-1);
#ifdef VAR_RANGES
		logval("tokens", ((int)now.tokens));
#endif
		;
		goto S_019_0;
S_019_0: /* 1 */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 10: // STATE 9 - promela/testdata/token-workers.pml:73 - [D_STEP73]
		if (!(boq == -1 && (((int)now.x_Busy)>=1)))
			continue;

		reached[0][9] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_005_0: /* 2 */
		if (!((((int)now.x_Busy)>=1)))
			Uerror("block in d_step seq");
S_006_0: /* 2 */
		now.x_Busy = (((int)now.x_Busy)-1);
#ifdef VAR_RANGES
		logval("x_Busy", ((int)now.x_Busy));
#endif
		;
S_007_0: /* 2 */
		now.x_Idle = (((int)now.x_Idle)+1);
#ifdef VAR_RANGES
		logval("x_Idle", ((int)now.x_Idle));
#endif
		;
		goto S_019_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 11: // STATE 14 - promela/testdata/token-workers.pml:76 - [D_STEP76]
		if (!(boq == -1 && ((((((int)now.x_Idle)>=1)&&(((int)now.tokens)==0))&&(((int)now.polls)<3))&&(((int)now.polls)<=2))))
			continue;

		reached[0][14] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_009_0: /* 2 */
		if (!(((((((int)now.x_Idle)>=1)&&(((int)now.tokens)==0))&&(((int)now.polls)<3))&&(((int)now.polls)<=2))))
			Uerror("block in d_step seq");
S_010_0: /* 2 */
		now.x_Idle = (((int)now.x_Idle)-1);
#ifdef VAR_RANGES
		logval("x_Idle", ((int)now.x_Idle));
#endif
		;
S_011_0: /* 2 */
		now.x_Idle = (((int)now.x_Idle)+1);
#ifdef VAR_RANGES
		logval("x_Idle", ((int)now.x_Idle));
#endif
		;
S_012_0: /* 2 */
		now.polls = (((int)now.polls)+1);
#ifdef VAR_RANGES
		logval("polls", ((int)now.polls));
#endif
		;
		goto S_019_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 12: // STATE 17 - promela/testdata/token-workers.pml:80 - [D_STEP80]
		if (!(boq == -1 && ((((int)now.tokens)<2)&&(((int)now.tokens)<=1))))
			continue;

		reached[0][17] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_014_0: /* 2 */
		if (!(((((int)now.tokens)<2)&&(((int)now.tokens)<=1))))
			Uerror("block in d_step seq");
S_015_0: /* 2 */
		now.tokens = (((int)now.tokens)+1);
#ifdef VAR_RANGES
		logval("tokens", ((int)now.tokens));
#endif
		;
		goto S_019_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 13: // STATE 22 - promela/testdata/token-workers.pml:84 - [-end-] (0:0:0 - 1)
		IfNotBlocked
		reached[0][22] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */
	case  _T5:	/* np_ */
		if (!((!(trpt->o_pm&4) && !(trpt->tau&128))))
			continue;
		/* else fall through */
	case  _T2:	/* true */
		_m = 3; goto P999;
#undef rand
	}

