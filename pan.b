	switch (t->back) {
	default: Uerror("bad return move");
	case  0: goto R999; /* nothing to undo */

		 /* CLAIM polls_stop */
;
		
	case 3: // STATE 1
		goto R999;
;
		;
		;
		
	case 5: // STATE 11
		goto R999;

	case 6: // STATE 20
		;
		p_restor(II);
		;
		;
		goto R999;

		 /* CLAIM busy_bounded */
;
		
	case 7: // STATE 1
		goto R999;

	case 8: // STATE 10
		;
		p_restor(II);
		;
		;
		goto R999;

		 /* PROC counters */
	case 9: // STATE 5
		sv_restor();
		goto R999;
	case 10: // STATE 9
		sv_restor();
		goto R999;
	case 11: // STATE 14
		sv_restor();
		goto R999;
	case 12: // STATE 17
		sv_restor();
		goto R999;

	case 13: // STATE 22
		;
		p_restor(II);
		;
		;
		goto R999;
	}

