package workflows

// wording is what the loop itself says to the user, in the case's language: never a
// tool's name or its error, which the turn keeps for support.
type wording struct {
	sources, cancelled, timedOut, noAnswer, invalidTwice, malformedCall string
}

var wordings = map[string]wording{
	"en": {
		sources:       "Sources:",
		cancelled:     "The turn was cancelled before it finished.",
		timedOut:      "This turn reached its time limit (%s) and was stopped; here is what it had done. Please ask again to continue.",
		noAnswer:      "I could not reach an answer within this turn; please ask again or rephrase.",
		invalidTwice:  "I could not complete this request: I could not get a step of it right twice. Please rephrase or give the missing details.",
		malformedCall: "I could not complete this request: I could not write a step of it correctly. Please ask again, perhaps in other words.",
	},
	"ro": {
		sources:       "Surse:",
		cancelled:     "Tura a fost anulată înainte de a se încheia.",
		timedOut:      "Această tură a atins limita de timp (%s) și a fost oprită; iată ce făcuse până atunci. Vă rog să întrebați din nou pentru a continua.",
		noAnswer:      "Nu am putut formula un răspuns în această tură; vă rog să reformulați întrebarea.",
		invalidTwice:  "Nu am putut finaliza cererea: nu am reușit de două ori să formulez corect unul dintre pași. Vă rog să reformulați sau să oferiți detaliile lipsă.",
		malformedCall: "Nu am putut finaliza cererea: nu am reușit să formulez corect unul dintre pași. Vă rog să întrebați din nou, eventual cu alte cuvinte.",
	},
	"it": {
		sources:       "Fonti:",
		cancelled:     "Il turno è stato annullato prima della fine.",
		timedOut:      "Questo turno ha raggiunto il limite di tempo (%s) ed è stato interrotto; ecco cosa aveva fatto finora. Chiedi di nuovo per continuare.",
		noAnswer:      "Non sono riuscito a formulare una risposta in questo turno; per favore riformula la domanda.",
		invalidTwice:  "Non ho potuto completare la richiesta: per due volte non sono riuscito a formulare correttamente uno dei passaggi. Per favore riformula o fornisci i dettagli mancanti.",
		malformedCall: "Non ho potuto completare la richiesta: non sono riuscito a formulare correttamente uno dei passaggi. Per favore chiedi di nuovo, magari con altre parole.",
	},
}

func wordsFor(lang string) wording {
	if w, ok := wordings[lang]; ok {
		return w
	}
	return wordings["en"]
}

// caseWording is what the case says to the client about its phases, the ladder and
// support, in the case's language; the ladder's sentences name no tool and no error,
// which the escalation keeps for support. The quota texts are seed 003's.
type caseWording struct {
	tier, tierQuestion, tierFloor, tierReview, tierBySupport, quotaOK, noQuota, paid, askUser, ticket, ticketUnanswered, answerFailed string
	closed                                                                                                                            string
	resumed                                                                                                                           map[string]string
	// budget is said when a budget (keyed by scope) runs out, renewed when it renews
	// at midnight, raised when an admin raises it.
	budget          map[string]string
	renewed, raised string
}

var caseWordings = map[string]caseWording{
	"en": {
		tier:             "Case tier: %d. %s",
		tierQuestion:     "Is there already a dispute in court, or is a significant sum of money involved?",
		tierFloor:        "The description mentions %[2]s, so the tier is at least %[1]d.",
		tierReview:       "I could not determine your case's tier, so our team will review it; the case is paused until then and you will find their answer here.",
		tierBySupport:    "Tier set by our team (%s): %s",
		quotaOK:          "I have checked your subscription and you have available credit for this case type (Tier %d). We can proceed. Please provide me with more details about the case.",
		noQuota:          "I have determined this case falls under Tier %d complexity. Your current subscription does not have available credit for this tier. To proceed, purchasing access for this specific case is required. Please use the 'Pay for Case' button to complete the payment. The interface will be limited until payment is confirmed.",
		paid:             "Payment %s is confirmed. We can proceed. Please provide me with more details about the case.",
		askUser:          "I could not complete a step of your case. Could you check the details you gave me, or tell me to try again?",
		ticket:           "The problem persists, so I have created support ticket %s. The case is paused until the support team resolves the issue; you will find their answer here.",
		ticketUnanswered: "I received no answer to my question in time, so I have created support ticket %s. The case is paused until the support team resolves the issue.",
		answerFailed:     "That step still fails after your answer.",
		closed:           "The case was closed by %s. %s",
		resumed:          map[string]string{"retry": "Support (%s) resumed the case and is running your request again: %s", "continue": "Support (%s) resumed the case; you can go on: %s", "close": "Support (%s) closed the case: %s"},
		budget: map[string]string{
			"case":   "This case has used its model budget for today (%d tokens), so I stopped here. It resumes at %s, or sooner if an administrator raises the budget.",
			"tenant": "Your subscription has used its model budget for today (%d tokens), so I stopped here. The case resumes at %s, or sooner if an administrator raises the budget.",
		},
		renewed: "The day's model budget is renewed; you can go on.",
		raised:  "An administrator (%s) raised the model budget; you can go on.",
	},
	"ro": {
		tier:             "Nivelul cazului: %d. %s",
		tierQuestion:     "Există deja un litigiu în instanță sau este implicată o sumă importantă de bani?",
		tierFloor:        "Descrierea menționează %[2]s, deci nivelul este cel puțin %[1]d.",
		tierReview:       "Nu am putut stabili nivelul cazului dvs., așa că echipa noastră îl va verifica; cazul este în pauză până atunci, iar răspunsul lor îl veți găsi aici.",
		tierBySupport:    "Nivel stabilit de echipa noastră (%s): %s",
		quotaOK:          "Am verificat abonamentul dvs. și aveți credit disponibil pentru acest tip de caz (Nivel %d). Putem continua. Vă rog să îmi oferiți mai multe detalii despre caz.",
		noQuota:          "Am determinat că acest caz se încadrează la Nivelul %d de complexitate. Abonamentul dvs. curent nu mai are credit disponibil pentru acest nivel. Pentru a continua, este necesară achiziționarea accesului pentru acest caz specific. Vă rugăm să utilizați butonul 'Plătește Cazul' pentru a finaliza plata. Interfața va fi limitată până la confirmarea plății.",
		paid:             "Plata %s a fost confirmată. Putem continua. Vă rog să îmi oferiți mai multe detalii despre caz.",
		askUser:          "Nu am putut finaliza un pas al cazului dvs. Puteți verifica datele pe care mi le-ați dat sau să-mi spuneți să încerc din nou?",
		ticket:           "Problema persistă, așa că am creat tichetul de suport %s. Cazul este în pauză până când echipa de suport rezolvă problema; răspunsul lor îl veți găsi aici.",
		ticketUnanswered: "Nu am primit la timp un răspuns la întrebarea mea, așa că am creat tichetul de suport %s. Cazul este în pauză până când echipa de suport rezolvă problema.",
		answerFailed:     "Pasul acesta eșuează în continuare după răspunsul dvs.",
		closed:           "Cazul a fost închis de %s. %s",
		resumed:          map[string]string{"retry": "Echipa de suport (%s) a reluat cazul și execută din nou cererea dvs.: %s", "continue": "Echipa de suport (%s) a reluat cazul; puteți continua: %s", "close": "Echipa de suport (%s) a închis cazul: %s"},
		budget: map[string]string{
			"case":   "Acest caz și-a folosit bugetul de model pentru astăzi (%d tokeni), așa că m-am oprit aici. Cazul se reia la %s sau mai devreme, dacă un administrator mărește bugetul.",
			"tenant": "Abonamentul dvs. și-a folosit bugetul de model pentru astăzi (%d tokeni), așa că m-am oprit aici. Cazul se reia la %s sau mai devreme, dacă un administrator mărește bugetul.",
		},
		renewed: "Bugetul de model al zilei s-a reînnoit; puteți continua.",
		raised:  "Un administrator (%s) a mărit bugetul de model; puteți continua.",
	},
	"it": {
		tier:             "Livello del caso: %d. %s",
		tierQuestion:     "C'è già una causa in tribunale, o è in gioco una somma di denaro rilevante?",
		tierFloor:        "La descrizione menziona %[2]s, quindi il livello è almeno %[1]d.",
		tierReview:       "Non sono riuscito a stabilire il livello del suo caso, quindi il nostro team lo verificherà; il caso è in pausa fino ad allora e troverà qui la loro risposta.",
		tierBySupport:    "Livello stabilito dal nostro team (%s): %s",
		quotaOK:          "Ho verificato il suo abbonamento e ha credito disponibile per questo tipo di caso (Livello %d). Possiamo procedere. Mi fornisca più dettagli sul caso.",
		noQuota:          "Ho stabilito che questo caso rientra nel Livello %d di complessità. Il suo abbonamento attuale non ha più credito disponibile per questo livello. Per procedere è necessario acquistare l'accesso per questo caso specifico. Utilizzi il pulsante 'Paga il caso' per completare il pagamento. L'interfaccia resterà limitata fino alla conferma del pagamento.",
		paid:             "Il pagamento %s è confermato. Possiamo procedere. Mi fornisca più dettagli sul caso.",
		askUser:          "Non sono riuscito a completare un passaggio del suo caso. Può verificare i dati che mi ha dato, o dirmi di riprovare?",
		ticket:           "Il problema persiste, quindi ho aperto il ticket di assistenza %s. Il caso è in pausa finché il team di assistenza non risolve il problema; troverà qui la loro risposta.",
		ticketUnanswered: "Non ho ricevuto in tempo una risposta alla mia domanda, quindi ho aperto il ticket di assistenza %s. Il caso è in pausa finché il team di assistenza non risolve il problema.",
		answerFailed:     "Questo passaggio continua a non funzionare dopo la sua risposta.",
		closed:           "Il caso è stato chiuso da %s. %s",
		resumed:          map[string]string{"retry": "L'assistenza (%s) ha ripreso il caso ed esegue di nuovo la sua richiesta: %s", "continue": "L'assistenza (%s) ha ripreso il caso; può continuare: %s", "close": "L'assistenza (%s) ha chiuso il caso: %s"},
		budget: map[string]string{
			"case":   "Questo caso ha esaurito il budget del modello per oggi (%d token), quindi mi sono fermato qui. Riprende alle %s, o prima se un amministratore aumenta il budget.",
			"tenant": "Il suo abbonamento ha esaurito il budget del modello per oggi (%d token), quindi mi sono fermato qui. Il caso riprende alle %s, o prima se un amministratore aumenta il budget.",
		},
		renewed: "Il budget del modello del giorno è stato rinnovato; può continuare.",
		raised:  "Un amministratore (%s) ha aumentato il budget del modello; può continuare.",
	},
}

func caseWordsFor(lang string) caseWording {
	if w, ok := caseWordings[lang]; ok {
		return w
	}
	return caseWordings["en"]
}
